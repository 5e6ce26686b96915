import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{b as a}from"./chunk-MPA4FHZL.js";import"./chunk-FKUFRGEL.js";import"./chunk-WGULNBVU.js";import"./chunk-TKQGE3FR.js";import"./chunk-5FFFNLHM.js";import"./chunk-5I7R3ZRB.js";export{a as renderSummary};
