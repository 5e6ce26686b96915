import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{o as h,q as y}from"./chunk-XQHL7J2B.js";import"./chunk-AI3YNTYH.js";import{a as $}from"./chunk-FXGDQ35O.js";import"./chunk-U7O2OSJZ.js";import{a as d,c as w}from"./chunk-SQNJL32M.js";import"./chunk-BT72KPSC.js";import"./chunk-G235UP7M.js";import{d as k,e as f}from"./chunk-5FFFNLHM.js";import{a as i}from"./chunk-5I7R3ZRB.js";var g=h.filter(t=>t.actionOnly!==!0),S=new Set(g.filter(t=>t.default==="true"||t.default==="false").map(t=>t.name)),x=new Set(["manifests","routes"]);function v(){let t=g.map(e=>{let r=S.has(e.name)?"":" <value>",n=e.default!==void 0?` (default: ${e.default})`:"";return`  --${e.name}${r}
      ${e.description.replaceAll("`","")}${n}`}).join(`
`);return`route-gate ${$}: gate deployments on Gateway API Route status

Usage:
  route-gate check [flags]                    apply or locate Routes and wait until every parent is ready
  route-gate check --from-file DUMP [flags]   judge a saved dump, no cluster, no waiting
  route-gate monitor [flags]                  judge every Route in scope and report what changed
                                              since --previous (a former report); --watch-duration
                                              keeps watching and logs each change as it happens
  route-gate --help | --version

Flags:
${t}

Exit codes: 0 ready, 1 not ready (failed or pending), 2 bad input or usage, 3 cluster access.
monitor exits 1 as --fail-on says: degraded (default), any or never.
`}i(v,"usage");function R(t){let[e="",...r]=t,n=new Map,l=new Set(g.map(a=>a.name));for(let a=0;a<r.length;a++){let m=r[a],c=/^--([a-z-]+)(?:=(.*))?$/s.exec(m);if(!c)throw new d(`Unexpected argument "${m}": flags look like --name value`);let s=c[1];if(!l.has(s))throw new d(`Unknown flag --${s}: see route-gate --help`);let u=c[2];if(u===void 0){let p=r[a+1];if(S.has(s)&&(p===void 0||p.startsWith("--")))u="true";else{if(p===void 0)throw new d(`Flag --${s} needs a value`);u=r[++a]}}let o=n.get(s);if(o!==void 0&&!x.has(s))throw new d(`Flag --${s} is given twice`);n.set(s,o===void 0?u:`${o}
${u}`)}return{command:e,values:n}}i(R,"parseArgs");async function O(t){if(t.format==="json")return(await import("./json-4IQ3RPUD.js")).renderJson;if(t.format==="markdown")return(await import("./summary-IZVVCRPG.js")).renderSummary;let e=process.stdout.isTTY===!0&&!process.env.NO_COLOR,{renderText:r}=await import("./text-CMVSLHML.js");return n=>r(n,{color:e})}i(O,"loadRenderer");async function A(t){try{if(t.length===0||t[0]==="--help"||t[0]==="-h"||t[0]==="help")return process.stdout.write(v()),t.length===0?2:0;let{command:e,values:r}=R(t);if(e!=="check"&&e!=="monitor")throw new d(`Unknown command "${e}": use route-gate check or route-gate monitor (see --help)`);if(r.has("help"))return process.stdout.write(v()),0;let n=y(o=>r.get(o),e==="monitor"?"monitor":"gate"),l=O(n);l.catch(()=>{});let{run:a,runExitCode:m}=await import("./run-6WTHQJ3C.js"),c=await a(n,{connect:i(async o=>(await import("./connect-MY3DFCA5.js")).connect({kubeconfig:o.kubeconfig,context:o.context,env:process.env,mask:i(()=>{},"mask")}),"connect"),log:i(o=>process.stderr.write(`${f(o)}
`),"log"),cwd:process.cwd(),now:Date.now});if(n.reportFile!==void 0){let[{writeUserFile:o},{renderJson:p}]=await Promise.all([import("./files-RMKF5MFQ.js"),import("./json-4IQ3RPUD.js")]);await o(n.reportFile,p(c)+`
`,"report-file")}let s=await l,{publicReport:u}=await import("./json-4IQ3RPUD.js");return process.stdout.write(k(s(u(c)))+`
`),m(c,n)}catch(e){let r=w(e),n=e instanceof Error?e.message:String(e);return process.stderr.write(`${f(`route-gate: ${n}`)}
`),r===1&&process.env.ROUTE_GATE_DEBUG&&e instanceof Error&&process.stderr.write(`${e.stack??""}
`),r}}i(A,"main");export{A as main,R as parseArgs,v as usage};
