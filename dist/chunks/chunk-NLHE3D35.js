import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
var t=process.getBuiltinModule("node:tls"),e=t;var o=t.connect;var r=t.rootCertificates;export{e as a,o as b,r as c};
