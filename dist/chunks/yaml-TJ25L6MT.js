import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a as i}from"./chunk-7Z4KCZYV.js";import{a as r,d as n}from"./chunk-5I7R3ZRB.js";var t=n(i(),1);function o(e){return(0,t.stringify)(e,{lineWidth:0}).trimEnd()}r(o,"renderYaml");export{o as renderYaml};
