import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a,b}from"./chunk-KFPRJHEM.js";import"./chunk-5FFFNLHM.js";import"./chunk-5I7R3ZRB.js";export{a as renderJson,b as reportForOutput};
