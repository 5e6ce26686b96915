import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
var t=process.getBuiltinModule("node:fs/promises");var o=t.readFile;export{o as a};
