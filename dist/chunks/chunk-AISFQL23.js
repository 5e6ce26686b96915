import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
var e=["HTTPRoute","GRPCRoute","TLSRoute","TCPRoute","UDPRoute"],t="gateway.networking.k8s.io";export{e as a,t as b};
