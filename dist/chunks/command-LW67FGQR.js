import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{j as h,l as y}from"./chunk-OP323YHB.js";import"./chunk-PCNWPQJM.js";import{a as $}from"./chunk-FXGDQ35O.js";import"./chunk-U7O2OSJZ.js";import{a as u,c as w}from"./chunk-SQNJL32M.js";import"./chunk-DQHF2WFD.js";import"./chunk-CMFZGU6N.js";import{d as k,e as f}from"./chunk-5FFFNLHM.js";import{a as i}from"./chunk-5I7R3ZRB.js";var g=h.filter(t=>t.actionOnly!==!0),S=new Set(g.filter(t=>t.default==="true"||t.default==="false").map(t=>t.name)),x=new Set(["manifests","routes"]);function v(){let t=g.map(e=>{let r=S.has(e.name)?"":" <value>",n=e.default!==void 0?` (default: ${e.default})`:"";return`  --${e.name}${r}
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
`}i(v,"usage");function O(t){let[e="",...r]=t,n=new Map,p=new Set(g.map(a=>a.name));for(let a=0;a<r.length;a++){let l=r[a],c=/^--([a-z-]+)(?:=(.*))?$/s.exec(l);if(!c)throw new u(`Unexpected argument "${l}": flags look like --name value`);let s=c[1];if(!p.has(s))throw new u(`Unknown flag --${s}: see route-gate --help`);let o=c[2];if(o===void 0){let m=r[a+1];if(S.has(s)&&(m===void 0||m.startsWith("--")))o="true";else{if(m===void 0)throw new u(`Flag --${s} needs a value`);o=r[++a]}}let d=n.get(s);if(d!==void 0&&!x.has(s))throw new u(`Flag --${s} is given twice`);n.set(s,d===void 0?o:`${d}
${o}`)}return{command:e,values:n}}i(O,"parseArgs");async function R(t){if(t.format==="json")return(await import("./json-YI3MO5NB.js")).renderJson;if(t.format==="markdown")return(await import("./summary-ELZMPJA4.js")).renderSummary;let e=process.stdout.isTTY===!0&&!process.env.NO_COLOR,{renderText:r}=await import("./text-SJP52I6O.js");return n=>r(n,{color:e})}i(R,"loadRenderer");async function A(t){try{if(t.length===0||t[0]==="--help"||t[0]==="-h"||t[0]==="help")return process.stdout.write(v()),t.length===0?2:0;let{command:e,values:r}=O(t);if(e!=="check"&&e!=="monitor")throw new u(`Unknown command "${e}": use route-gate check or route-gate monitor (see --help)`);if(r.has("help"))return process.stdout.write(v()),0;let n=y(o=>r.get(o),e==="monitor"?"monitor":"gate"),p=R(n);p.catch(()=>{});let{run:a,runExitCode:l}=await import("./run-5NZNV2MK.js"),c=await a(n,{connect:i(async o=>(await import("./connect-6VWOFM5F.js")).connect({kubeconfig:o.kubeconfig,context:o.context,env:process.env,mask:i(()=>{},"mask")}),"connect"),log:i(o=>process.stderr.write(`${f(o)}
`),"log"),cwd:process.cwd(),now:Date.now});if(n.reportFile!==void 0){let[{writeUserFile:o},{renderJson:d}]=await Promise.all([import("./files-RMKF5MFQ.js"),import("./json-YI3MO5NB.js")]);await o(n.reportFile,d(c)+`
`,"report-file")}let s=await p;return process.stdout.write(k(s(c))+`
`),l(c,n)}catch(e){let r=w(e),n=e instanceof Error?e.message:String(e);return process.stderr.write(`${f(`route-gate: ${n}`)}
`),r===1&&process.env.ROUTE_GATE_DEBUG&&e instanceof Error&&process.stderr.write(`${e.stack??""}
`),r}}i(A,"main");export{A as main,O as parseArgs,v as usage};
