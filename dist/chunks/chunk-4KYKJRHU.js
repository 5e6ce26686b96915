import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a as l}from"./chunk-5I7R3ZRB.js";function o(u){let t=[0];for(let e=u.indexOf(`
`);e!==-1;e=u.indexOf(`
`,e+1))t.push(e+1);return e=>{let n=0,r=t.length-1;for(;n<r;){let i=n+r+1>>1;(t[i]??0)<=e?n=i:r=i-1}return n+1}}l(o,"lineIndex");export{o as a};
