import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a,b}from"./chunk-5B6ZUHKN.js";import"./chunk-X7FWWRUU.js";import"./chunk-5I7R3ZRB.js";export{a as renderJson,b as reportForOutput};
