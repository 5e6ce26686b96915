import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a as t,b as i}from"./chunks/chunk-RAAFQNQI.js";import"./chunks/chunk-CLU7ULJ7.js";import"./chunks/chunk-5I7R3ZRB.js";i("action");var{runAction:a}=await import("./chunks/action-HK7NA4DN.js");await t(await a());
