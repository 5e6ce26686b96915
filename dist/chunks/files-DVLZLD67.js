import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a}from"./chunk-TZOUUH3Z.js";import"./chunk-SQNJL32M.js";import"./chunk-5I7R3ZRB.js";export{a as writeUserFile};
