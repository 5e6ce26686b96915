import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a as t,b as i}from"./chunks/chunk-DQ5YPIWM.js";import"./chunks/chunk-U7O2OSJZ.js";import"./chunks/chunk-5I7R3ZRB.js";i("action");var{runAction:a}=await import("./chunks/action-X5KH6LL6.js");await t(await a());
