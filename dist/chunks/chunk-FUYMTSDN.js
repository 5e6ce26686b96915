import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
var t=process.getBuiltinModule("node:fs"),e=t;var n=t.appendFileSync;var o=t.closeSync,c=t.constants;var r=t.existsSync;var s=t.openSync;var p=t.promises;var a=t.readFileSync;var x=t.statSync;export{e as a,n as b,o as c,c as d,r as e,s as f,p as g,a as h,x as i};
