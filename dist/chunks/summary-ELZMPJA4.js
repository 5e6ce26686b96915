import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{b as a}from"./chunk-HYVY676H.js";import"./chunk-PG2SXAXI.js";import"./chunk-DQHF2WFD.js";import"./chunk-CMFZGU6N.js";import"./chunk-5FFFNLHM.js";import"./chunk-5I7R3ZRB.js";export{a as renderSummary};
