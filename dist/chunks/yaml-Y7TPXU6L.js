import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a as o}from"./chunk-7Z4KCZYV.js";import{a as r,d as i}from"./chunk-5I7R3ZRB.js";var t=i(o(),1);function n(e){return(0,t.stringify)(e,{lineWidth:0}).trimEnd()}r(n,"renderYaml");export{n as renderYaml};
