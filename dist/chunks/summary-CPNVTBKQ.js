import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{b as a}from"./chunk-3SMMZRRM.js";import"./chunk-VMH2226N.js";import"./chunk-JAUA3QHU.js";import"./chunk-EMUSPKMU.js";import"./chunk-5FFFNLHM.js";import"./chunk-5I7R3ZRB.js";export{a as renderSummary};
