import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a as o}from"./chunk-U7O2OSJZ.js";var r=o.version;export{r as a};
