import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{b as a}from"./chunk-VYHKRIXG.js";import"./chunk-EX67WT7A.js";import"./chunk-BT72KPSC.js";import"./chunk-G235UP7M.js";import"./chunk-5FFFNLHM.js";import"./chunk-5I7R3ZRB.js";export{a as renderSummary};
