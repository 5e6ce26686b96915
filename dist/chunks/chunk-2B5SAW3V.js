import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
var t=process.getBuiltinModule("node:util");var e=t.parseArgs;var o=t.promisify;export{e as a,o as b};
