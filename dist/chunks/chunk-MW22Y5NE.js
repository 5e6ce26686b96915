import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
var e=process.getBuiltinModule("node:timers/promises");var t=e.setTimeout;export{t as a};
