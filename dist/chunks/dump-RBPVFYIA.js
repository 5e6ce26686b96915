import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a,b,c,d}from"./chunk-VNKWA73X.js";import"./chunk-7Z4KCZYV.js";import"./chunk-TLMFYTC6.js";import"./chunk-SQNJL32M.js";import"./chunk-5I7R3ZRB.js";export{a as DUMP_HEADER_PREFIX,c as readDumpHeader,b as renderDump,d as runDump};
