import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
var e=process.getBuiltinModule("node:path"),o=e;var t=e.resolve;export{o as a,t as b};
