import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
var t=process.getBuiltinModule("node:os"),e=t,o=t.EOL;var r=t.homedir;export{e as a,o as b,r as c};
