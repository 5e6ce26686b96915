import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
var t=process.getBuiltinModule("node:fs"),e=t;var n=t.appendFileSync;var o=t.constants;var c=t.existsSync;var r=t.promises;var s=t.readFileSync;var p=t.statSync;export{e as a,n as b,o as c,c as d,r as e,s as f,p as g};
