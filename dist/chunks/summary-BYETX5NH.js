import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{b as a}from"./chunk-44R6UDSD.js";import"./chunk-4MZ3UJWS.js";import"./chunk-4FLDNSR7.js";import"./chunk-O4PYE5NI.js";import"./chunk-5FFFNLHM.js";import"./chunk-5I7R3ZRB.js";export{a as renderSummary};
