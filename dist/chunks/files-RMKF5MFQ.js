import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a,b,c,d}from"./chunk-7M4LSJXM.js";import"./chunk-SQNJL32M.js";import"./chunk-5I7R3ZRB.js";export{a as MAX_FILE_BYTES,b as checkRegularFile,c as readUserFile,d as writeUserFile};
