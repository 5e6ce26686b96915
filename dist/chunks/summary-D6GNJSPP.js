import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{b as a}from"./chunk-OREKT42K.js";import"./chunk-OWFRGUZY.js";import"./chunk-YLCZCFB5.js";import"./chunk-4NUVDIPR.js";import"./chunk-TKQGE3FR.js";import"./chunk-NLBBNT2C.js";import"./chunk-5I7R3ZRB.js";export{a as renderSummary};
