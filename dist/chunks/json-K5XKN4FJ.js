import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a,b,c}from"./chunk-B7MM3444.js";import"./chunk-YLCZCFB5.js";import"./chunk-NLBBNT2C.js";import"./chunk-5I7R3ZRB.js";export{b as publicReport,a as renderJson,c as reportForOutput};
