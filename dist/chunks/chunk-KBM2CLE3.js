import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a as o}from"./chunk-TYGUZCRS.js";var r=o.version;export{r as a};
