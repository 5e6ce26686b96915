import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
var t=process.getBuiltinModule("node:timers/promises");var o=t.setTimeout;var e=process.getBuiltinModule("node:fs/promises");var n=e.readFile;export{o as a,n as b};
