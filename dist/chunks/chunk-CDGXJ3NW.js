import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a as o}from"./chunk-CLU7ULJ7.js";var r=o.version;export{r as a};
