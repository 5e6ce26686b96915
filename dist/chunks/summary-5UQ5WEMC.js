import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{b as a}from"./chunk-EDGGJYKQ.js";import"./chunk-HD6JK66G.js";import"./chunk-JAUA3QHU.js";import"./chunk-EMUSPKMU.js";import"./chunk-5FFFNLHM.js";import"./chunk-5I7R3ZRB.js";export{a as renderSummary};
