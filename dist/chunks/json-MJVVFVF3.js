import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a,b,c}from"./chunk-6Q25Q7RF.js";import"./chunk-5FFFNLHM.js";import"./chunk-5I7R3ZRB.js";export{b as publicReport,a as renderJson,c as reportForOutput};
