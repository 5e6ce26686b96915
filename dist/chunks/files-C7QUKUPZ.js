import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-TLMFYTC6.js";import"./chunk-SQNJL32M.js";import"./chunk-5I7R3ZRB.js";export{a as MAX_FILE_BYTES,b as checkRegularFile,d as readStdin,c as readUserFile,e as writeUserFile};
