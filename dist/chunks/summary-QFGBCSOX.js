import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a}from"./chunk-LOAA2G26.js";import"./chunk-OSTANXCM.js";import"./chunk-HWLSIKOR.js";import"./chunk-AISFQL23.js";import"./chunk-X7FWWRUU.js";import"./chunk-5I7R3ZRB.js";export{a as renderSummary};
