import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
var e=process.getBuiltinModule("node:child_process"),o=e;var c=e.spawn;export{o as a,c as b};
