import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a}from"./chunk-YXGTZGZ2.js";import"./chunk-W7UXQFCZ.js";import"./chunk-HAWSHWBE.js";import"./chunk-CMFZGU6N.js";import"./chunk-5FFFNLHM.js";import"./chunk-5I7R3ZRB.js";export{a as renderSummary};
