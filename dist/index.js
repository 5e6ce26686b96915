import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a as t,b as i}from"./chunks/chunk-QHV4WMBM.js";import"./chunks/chunk-DZC4UAKY.js";import"./chunks/chunk-5I7R3ZRB.js";i("action");var{runAction:a}=await import("./chunks/action-M2RSTDVJ.js");await t(await a());
