import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a as h,c as I}from"./chunk-JZKZRKJ7.js";import{Q as y,X as A}from"./chunk-TRJ34WSE.js";import{b as E}from"./chunk-Y5USVTI6.js";import"./chunk-6NBVAJRE.js";import{a as S}from"./chunk-2B5SAW3V.js";import{a as f,c as k}from"./chunk-TMUNCBPM.js";import{a as i}from"./chunk-5I7R3ZRB.js";var L=new Set(["fail-on","watch-duration","previous","state-out"]),$=new Set(["output-file"]),P=new Set(["manifests","routes","timeout","fail-fast","heartbeat","verify-traffic","gateway-address","expect-status","traffic-ca","traffic-skip-tls-verify","traffic-successes","traffic-allowed-cidrs","traffic-show-body"]),T=new Set(["manifests","from-file","namespace","conditions","strict","kubeconfig","context","format","report-file"]),d=[{name:"check",summary:"read-only: locate Routes, wait until every parent is ready, judge",usage:["check (--routes KIND/NAME | -l SELECTOR | --manifests FILES) [flags]","check --from-file DUMP|- [flags]      judge a saved dump: no cluster, no waiting"],command:"gate",apply:!1,takes:i(e=>!L.has(e)&&!$.has(e)&&e!=="dry-run","takes")},{name:"apply",summary:"server-side apply --manifests (dry-run of every document first), then gate",usage:["apply --manifests FILES [flags]"],command:"gate",apply:!0,takes:i(e=>!L.has(e)&&!$.has(e)&&e!=="from-file","takes")},{name:"monitor",summary:"judge every Route in scope and report what changed since --previous",usage:["monitor [-n NAMESPACE | -A] [--previous FILE] [--state-out FILE] [flags]"],command:"monitor",apply:!1,takes:i(e=>!P.has(e)&&!$.has(e)&&e!=="dry-run","takes")},{name:"predict",summary:"read-only: predict what the controllers will write for --manifests, before applying",usage:["predict --manifests FILES|- [--from-file DUMP|-] [flags]","predict --manifests FILES|-             against the live cluster, read-only"],command:"predict",apply:!1,takes:i(e=>T.has(e),"takes")},{name:"dump",summary:"read-only: write the cluster objects predict needs (never Secrets) to a file",usage:["dump -o FILE|- [--kubeconfig PATH] [--context NAME]"],command:"dump",apply:!1,takes:i(e=>["output-file","kubeconfig","context"].includes(e),"takes"),renames:{o:"output-file",output:"output-file"}}],l=h.filter(e=>e.actionOnly!==!0),x=new Set(l.filter(e=>e.default==="true"||e.default==="false").map(e=>e.name)),U=new Set(["manifests","routes"]),N={n:"namespace",A:"all-namespaces",l:"selector",o:"format"},F={output:"format"};function R(e){let[n="",...s]=e;if(n==="--help"||n==="-h")return{help:g()};if(n==="help")return{help:s[0]===void 0?g():b(O(s[0]))};let t=O(n);return s.includes("--help")||s.includes("-h")?{help:b(t)}:{verb:t,values:_(t,s)}}i(R,"parseCommandLine");function O(e){let n=d.find(r=>r.name===e);if(n)return n;let s=d.map(r=>r.name),t=y(e,s,1)[0];throw new f(`Unknown command "${e}": ${t===void 0?"":`did you mean ${t}? `}use one of ${s.join(", ")} (see route-gate --help)`)}i(O,"verbNamed");function _(e,n){let s=l.filter(a=>e.takes(a.name)),t=Object.fromEntries(s.map(a=>[a.name,{type:"string",multiple:!0}])),r;try{r=S({args:j(n,e),options:t,strict:!0,allowPositionals:!0})}catch(a){throw C(e,a)}let[o]=r.positionals;if(o!==void 0)throw new f(`Unexpected argument "${o}": flags look like --name value (see route-gate ${e.name} --help)`);let u=new Map;for(let[a,m]of Object.entries(r.values)){let c=m??[];if(c.length>1&&!U.has(a))throw new f(`Flag --${a} is given twice`);u.set(a,c.join(`
`))}return u}i(_,"flagValues");function j(e,n){let s=[];for(let t=0;t<e.length;t++){let r=e[t],o=/^-([a-zA-Z])(?:=?(.*))?$/s.exec(r),u=/^--([a-z-]+)(=.*)?$/s.exec(r),a,m,c=o?n.renames?.[o[1]]??N[o[1]]:void 0;if(o&&c!==void 0?(a=c,m=o[2]===""?void 0:o[2]):u&&(a=n.renames?.[u[1]]??F[u[1]]??u[1],m=u[2]?.slice(1)),a===void 0){s.push(r);continue}if(m!==void 0)s.push(`--${a}=${m}`);else if(x.has(a)){let p=e[t+1],w=p!==void 0&&/^(true|false|yes|no|on|off)$/i.test(p);s.push(`--${a}=${w?p:"true"}`),w&&t++}else e[t+1]===void 0?s.push(`--${a}`):s.push(`--${a}=${e[++t]}`)}return s}i(j,"normalized");function C(e,n){let s=n,t=/'(-{1,2}[^'\s=<]+)/.exec(s.message??"")?.[1]??"",r=t.replace(/^-+/,"");if(s.code==="ERR_PARSE_ARGS_INVALID_OPTION_VALUE")return new f(`Flag --${r} needs a value`);let o=`see route-gate ${e.name} --help`,u=d.find(c=>c!==e&&c.takes(r)&&l.some(p=>p.name===r));if(u)return new f(`Flag ${t} belongs to route-gate ${u.name}, not ${e.name} (${o})`);if(h.some(c=>c.name===r&&c.actionOnly===!0))return new f(`Flag ${t} is an input of the Action only (${o})`);let a=t.startsWith("--")?y(r,l.filter(c=>e.takes(c.name)).map(c=>c.name),1)[0]:void 0,m=a===void 0?"":`: did you mean --${a}?`;return new f(`Unknown flag ${t}${m} (${o})`)}i(C,"flagError");function v(e,n={}){let s=i(t=>{let r=Object.entries({...N,...n}).find(([o,u])=>u===t&&o.length===1)?.[0];return r===void 0?"":`-${r}, `},"shortOf");return e.map(t=>{let r=x.has(t.name)?"":` ${t.arg??"VALUE"}`,o=t.default!==void 0?` (default: ${t.default})`:"";return`  ${s(t.name)}--${t.name}${r}
      ${(t.flag??t.description).replaceAll("`","")}${o}`}).join(`
`)}i(v,"flagHelp");var V=`Exit codes: 0 ready, 1 not ready (failed or pending), 2 bad input or usage, 3 cluster access.
monitor exits 1 as --fail-on says: degraded (default), any or never.`;function g(){let e=d.map(n=>`  ${n.name.padEnd(9)}${n.summary}`).join(`
`);return`route-gate ${E}: gate deployments on Gateway API Route status

Usage:
  route-gate <command> [flags]
  route-gate <command> --help | route-gate help <command>
  route-gate --help | --version

Commands:
${e}

Flags (each command takes the ones its help lists):
${v(l)}

${V}
`}i(g,"usage");function b(e){return`route-gate ${e.name}: ${e.summary}

Usage:
${e.usage.map(n=>`  route-gate ${n}`).join(`
`)}

Flags:
${v(l.filter(n=>e.takes(n.name)),e.renames)}

${V}
`}i(b,"verbUsage");async function q(e){try{if(e.length===0)return process.stdout.write(g()),2;let n=R(e);if("help"in n)return process.stdout.write(n.help),0;let{verb:s,values:t}=n,r=I(u=>t.get(u),s.command,{apply:s.apply,kubeconfig:"path"}),{runCommand:o}=await import("./command-run-DGWS4ENK.js");return await o(r)}catch(n){let s=k(n),t=n instanceof Error?n.message:String(n);return process.stderr.write(`${A(`route-gate: ${t}`)}
`),s===1&&process.env.ROUTE_GATE_DEBUG&&n instanceof Error&&process.stderr.write(`${n.stack??""}
`),s}}i(q,"main");export{q as main};
