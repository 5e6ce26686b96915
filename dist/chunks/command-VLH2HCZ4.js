import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{p as S,r as b,s as w}from"./chunk-MT645NFM.js";import"./chunk-UEHFVTVT.js";import{a as v}from"./chunk-FXGDQ35O.js";import"./chunk-U7O2OSJZ.js";import{a as f,c as k}from"./chunk-SQNJL32M.js";import"./chunk-JAUA3QHU.js";import"./chunk-EMUSPKMU.js";import{d as O,e as $}from"./chunk-5FFFNLHM.js";import{a}from"./chunk-5I7R3ZRB.js";import{parseArgs as T}from"node:util";var R=new Set(["fail-on","watch-duration","previous","state-out"]),C=new Set(["manifests","fail-fast","heartbeat","verify-traffic","gateway-address","expect-status","traffic-ca","traffic-skip-tls-verify","traffic-allowed-cidrs","traffic-show-body"]),d=[{name:"check",summary:"read-only: locate Routes, wait until every parent is ready, judge",usage:["check (--routes KIND/NAME | -l SELECTOR | --manifests FILES) [flags]","check --from-file DUMP|- [flags]      judge a saved dump: no cluster, no waiting"],command:"gate",apply:!1,takes:a(e=>!R.has(e)&&e!=="dry-run","takes")},{name:"apply",summary:"server-side apply --manifests (dry-run of every document first), then gate",usage:["apply --manifests FILES [flags]"],command:"gate",apply:!0,takes:a(e=>!R.has(e)&&e!=="from-file","takes")},{name:"monitor",summary:"judge every Route in scope and report what changed since --previous",usage:["monitor [-n NAMESPACE | -A] [--previous FILE] [--state-out FILE] [flags]"],command:"monitor",apply:!1,takes:a(e=>!C.has(e)&&e!=="dry-run","takes")}],l=S.filter(e=>e.actionOnly!==!0),A=new Set(l.filter(e=>e.default==="true"||e.default==="false").map(e=>e.name)),U=new Set(["manifests","routes"]),E={n:"namespace",A:"all-namespaces",l:"selector",o:"format"},V={output:"format"};function F(e){let[t="",...n]=e;if(t==="--help"||t==="-h")return{help:g()};if(t==="help")return{help:n[0]===void 0?g():x(I(n[0]))};let r=I(t);return n.includes("--help")||n.includes("-h")?{help:x(r)}:{verb:r,values:P(r,n)}}a(F,"parseCommandLine");function I(e){let t=d.find(s=>s.name===e);if(t)return t;let n=d.map(s=>s.name),r=w(e,n,1)[0];throw new f(`Unknown command "${e}": ${r===void 0?"":`did you mean ${r}? `}use one of ${n.join(", ")} (see route-gate --help)`)}a(I,"verbNamed");function P(e,t){let n=l.filter(o=>e.takes(o.name)),r=Object.fromEntries(n.map(o=>[o.name,{type:"string",multiple:!0}])),s;try{s=T({args:_(t),options:r,strict:!0,allowPositionals:!0})}catch(o){throw j(e,o)}let[u]=s.positionals;if(u!==void 0)throw new f(`Unexpected argument "${u}": flags look like --name value (see route-gate ${e.name} --help)`);let i=new Map;for(let[o,p]of Object.entries(s.values)){let c=p??[];if(c.length>1&&!U.has(o))throw new f(`Flag --${o} is given twice`);i.set(o,c.join(`
`))}return i}a(P,"flagValues");function _(e){let t=[];for(let n=0;n<e.length;n++){let r=e[n],s=/^-([a-zA-Z])(?:=?(.*))?$/s.exec(r),u=/^--([a-z-]+)(=.*)?$/s.exec(r),i,o;if(s&&E[s[1]]!==void 0?(i=E[s[1]],o=s[2]===""?void 0:s[2]):u&&(i=V[u[1]]??u[1],o=u[2]?.slice(1)),i===void 0){t.push(r);continue}if(o!==void 0)t.push(`--${i}=${o}`);else if(A.has(i)){let p=e[n+1],c=p!==void 0&&/^(true|false|yes|no|on|off)$/i.test(p);t.push(`--${i}=${c?p:"true"}`),c&&n++}else e[n+1]===void 0?t.push(`--${i}`):t.push(`--${i}=${e[++n]}`)}return t}a(_,"normalized");function j(e,t){let n=t,r=/'(-{1,2}[^'\s=<]+)/.exec(n.message??"")?.[1]??"",s=r.replace(/^-+/,"");if(n.code==="ERR_PARSE_ARGS_INVALID_OPTION_VALUE")return new f(`Flag --${s} needs a value`);let u=`see route-gate ${e.name} --help`,i=d.find(c=>c!==e&&c.takes(s)&&l.some(h=>h.name===s));if(i)return new f(`Flag ${r} belongs to route-gate ${i.name}, not ${e.name} (${u})`);let o=r.startsWith("--")?w(s,l.filter(c=>e.takes(c.name)).map(c=>c.name),1)[0]:void 0,p=o===void 0?"":`: did you mean --${o}?`;return new f(`Unknown flag ${r}${p} (${u})`)}a(j,"flagError");function L(e){let t=a(n=>{let r=Object.entries(E).find(([,s])=>s===n)?.[0];return r===void 0?"":`-${r}, `},"shortOf");return e.map(n=>{let r=A.has(n.name)?"":" <value>",s=n.default!==void 0?` (default: ${n.default})`:"";return`  ${t(n.name)}--${n.name}${r}
      ${n.description.replaceAll("`","")}${s}`}).join(`
`)}a(L,"flagHelp");var N=`Exit codes: 0 ready, 1 not ready (failed or pending), 2 bad input or usage, 3 cluster access.
monitor exits 1 as --fail-on says: degraded (default), any or never.`;function g(){let e=d.map(t=>`  ${t.name.padEnd(9)}${t.summary}`).join(`
`);return`route-gate ${v}: gate deployments on Gateway API Route status

Usage:
  route-gate <command> [flags]
  route-gate <command> --help | route-gate help <command>
  route-gate --help | --version

Commands:
${e}

Flags (each command takes the ones its help lists):
${L(l)}

${N}
`}a(g,"usage");function x(e){return`route-gate ${e.name}: ${e.summary}

Usage:
${e.usage.map(t=>`  route-gate ${t}`).join(`
`)}

Flags:
${L(l.filter(t=>e.takes(t.name)))}

${N}
`}a(x,"verbUsage");async function M(e){if(e.format==="json")return(await import("./json-4IQ3RPUD.js")).renderJson;if(e.format==="yaml")return(await import("./yaml-Y7TPXU6L.js")).renderYaml;if(e.format==="markdown")return(await import("./summary-5UQ5WEMC.js")).renderSummary;let t=process.stdout.isTTY===!0&&!process.env.NO_COLOR,{renderText:n}=await import("./text-PB2VVX3J.js");return r=>n(r,{color:t})}a(M,"loadRenderer");async function q(e){try{if(e.length===0)return process.stdout.write(g()),2;let t=F(e);if("help"in t)return process.stdout.write(t.help),0;let{verb:n,values:r}=t,s=b(m=>r.get(m),n.command,{apply:n.apply,kubeconfig:"path"}),u=M(s);u.catch(()=>{});let{run:i,runExitCode:o}=await import("./run-H3N3AGDX.js"),p=await i(s,{connect:a(async m=>{if(m.kubeconfigFile!==void 0){let{checkRegularFile:y}=await import("./files-UHSRS5FL.js");y(m.kubeconfigFile,`Invalid kubeconfig "${m.kubeconfigFile}"`)}return(await import("./connect-DM3CTFP4.js")).connect({context:m.context,env:m.kubeconfigFile===void 0?process.env:{...process.env,KUBECONFIG:m.kubeconfigFile},mask:a(()=>{},"mask")})},"connect"),log:a(m=>process.stderr.write(`${$(m)}
`),"log"),cwd:process.cwd(),now:Date.now});if(s.reportFile!==void 0){let[{writeUserFile:m},{renderJson:y}]=await Promise.all([import("./files-UHSRS5FL.js"),import("./json-4IQ3RPUD.js")]);await m(s.reportFile,y(p)+`
`,"report-file")}let c=await u,{publicReport:h}=await import("./json-4IQ3RPUD.js");return process.stdout.write(O(c(h(p)))+`
`),o(p,s)}catch(t){let n=k(t),r=t instanceof Error?t.message:String(t);return process.stderr.write(`${$(`route-gate: ${r}`)}
`),n===1&&process.env.ROUTE_GATE_DEBUG&&t instanceof Error&&process.stderr.write(`${t.stack??""}
`),n}}a(q,"main");export{q as main};
