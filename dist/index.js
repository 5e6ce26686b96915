import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a as t,b as i}from"./chunks/chunk-EHTRRW5T.js";import"./chunks/chunk-TYGUZCRS.js";import"./chunks/chunk-5I7R3ZRB.js";i("action");var{runAction:a}=await import("./chunks/action-KF6YJCOB.js");await t(await a());
