import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a as y,c as w}from"./chunk-PSWUBEHB.js";import{P as h,W as b}from"./chunk-5BY5HGFN.js";import{b as $}from"./chunk-7IROYJ4F.js";import"./chunk-UKPH7RP5.js";import{a as u,c as S}from"./chunk-SQNJL32M.js";import{a as i}from"./chunk-5I7R3ZRB.js";var N=process.getBuiltinModule("node:util");var A=N.parseArgs;var I=new Set(["fail-on","watch-duration","previous","state-out"]),x=new Set(["output-file"]),P=new Set(["manifests","routes","timeout","fail-fast","heartbeat","verify-traffic","gateway-address","expect-status","traffic-ca","traffic-skip-tls-verify","traffic-successes","traffic-allowed-cidrs","traffic-show-body"]),V=new Set(["manifests","from-file","namespace","conditions","strict","kubeconfig","context","format","report-file"]),d=[{name:"check",summary:"read-only: locate Routes, wait until every parent is ready, judge",usage:["check (--routes KIND/NAME | -l SELECTOR | --manifests FILES) [flags]","check --from-file DUMP|- [flags]      judge a saved dump: no cluster, no waiting"],command:"gate",apply:!1,takes:i(e=>!I.has(e)&&!x.has(e)&&e!=="dry-run","takes")},{name:"apply",summary:"server-side apply --manifests (dry-run of every document first), then gate",usage:["apply --manifests FILES [flags]"],command:"gate",apply:!0,takes:i(e=>!I.has(e)&&!x.has(e)&&e!=="from-file","takes")},{name:"monitor",summary:"judge every Route in scope and report what changed since --previous",usage:["monitor [-n NAMESPACE | -A] [--previous FILE] [--state-out FILE] [flags]"],command:"monitor",apply:!1,takes:i(e=>!P.has(e)&&!x.has(e)&&e!=="dry-run","takes")},{name:"predict",summary:"read-only: predict what the controllers will write for --manifests, before applying",usage:["predict --manifests FILES|- [--from-file DUMP|-] [flags]","predict --manifests FILES|-             against the live cluster, read-only"],command:"predict",apply:!1,takes:i(e=>V.has(e),"takes")},{name:"dump",summary:"read-only: write the cluster objects predict needs (never Secrets) to a file",usage:["dump -o FILE|- [--kubeconfig PATH] [--context NAME]"],command:"dump",apply:!1,takes:i(e=>["output-file","kubeconfig","context"].includes(e),"takes"),renames:{o:"output-file",output:"output-file"}}],m=y.filter(e=>e.actionOnly!==!0),O=new Set(m.filter(e=>e.default==="true"||e.default==="false").map(e=>e.name)),_=new Set(["manifests","routes"]),L={n:"namespace",A:"all-namespaces",l:"selector",o:"format"},R={output:"format"};function M(e){let[n="",...r]=e;if(n==="--help"||n==="-h")return{help:g()};if(n==="help")return{help:r[0]===void 0?g():k(T(r[0]))};let t=T(n);return r.includes("--help")||r.includes("-h")?{help:k(t)}:{verb:t,values:U(t,r)}}i(M,"parseCommandLine");function T(e){let n=d.find(s=>s.name===e);if(n)return n;let r=d.map(s=>s.name),t=h(e,r,1)[0];throw new u(`Unknown command "${e}": ${t===void 0?"":`did you mean ${t}? `}use one of ${r.join(", ")} (see route-gate --help)`)}i(T,"verbNamed");function U(e,n){let r=m.filter(o=>e.takes(o.name)),t=Object.fromEntries(r.map(o=>[o.name,{type:"string",multiple:!0}])),s;try{s=A({args:F(n,e),options:t,strict:!0,allowPositionals:!0})}catch(o){throw j(e,o)}let[a]=s.positionals;if(a!==void 0)throw new u(`Unexpected argument "${a}": flags look like --name value (see route-gate ${e.name} --help)`);let c=new Map;for(let[o,l]of Object.entries(s.values)){let p=l??[];if(p.length>1&&!_.has(o))throw new u(`Flag --${o} is given twice`);c.set(o,p.join(`
`))}return c}i(U,"flagValues");function F(e,n){let r=[];for(let t=0;t<e.length;t++){let s=e[t],a=/^-([a-zA-Z])(?:=?(.*))?$/s.exec(s),c=/^--([a-z-]+)(=.*)?$/s.exec(s),o,l,p=a?n.renames?.[a[1]]??L[a[1]]:void 0;if(a&&p!==void 0?(o=p,l=a[2]===""?void 0:a[2]):c&&(o=n.renames?.[c[1]]??R[c[1]]??c[1],l=c[2]?.slice(1)),o===void 0){r.push(s);continue}if(l!==void 0)r.push(`--${o}=${l}`);else if(O.has(o)){let f=e[t+1],E=f!==void 0&&/^(true|false|yes|no|on|off)$/i.test(f);r.push(`--${o}=${E?f:"true"}`),E&&t++}else e[t+1]===void 0?r.push(`--${o}`):r.push(`--${o}=${e[++t]}`)}return r}i(F,"normalized");function j(e,n){let r=n,t=/'(-{1,2}[^'\s=<]+)/.exec(r.message??"")?.[1]??"",s=t.replace(/^-+/,"");if(r.code==="ERR_PARSE_ARGS_INVALID_OPTION_VALUE")return new u(`Flag --${s} needs a value`);let a=`see route-gate ${e.name} --help`,c=d.find(p=>p!==e&&p.takes(s)&&m.some(f=>f.name===s));if(c)return new u(`Flag ${t} belongs to route-gate ${c.name}, not ${e.name} (${a})`);if(y.some(p=>p.name===s&&p.actionOnly===!0))return new u(`Flag ${t} is an input of the Action only (${a})`);let o=t.startsWith("--")?h(s,m.filter(p=>e.takes(p.name)).map(p=>p.name),1)[0]:void 0,l=o===void 0?"":`: did you mean --${o}?`;return new u(`Unknown flag ${t}${l} (${a})`)}i(j,"flagError");function v(e,n={}){let r=i(t=>{let s=Object.entries({...L,...n}).find(([a,c])=>c===t&&a.length===1)?.[0];return s===void 0?"":`-${s}, `},"shortOf");return e.map(t=>{let s=O.has(t.name)?"":` ${t.arg??"VALUE"}`,a=t.default!==void 0?` (default: ${t.default})`:"";return`  ${r(t.name)}--${t.name}${s}
      ${(t.flag??t.description).replaceAll("`","")}${a}`}).join(`
`)}i(v,"flagHelp");var C=`Exit codes: 0 ready, 1 not ready (failed or pending), 2 bad input or usage, 3 cluster access.
monitor exits 1 as --fail-on says: degraded (default), any or never.`;function g(){let e=d.map(n=>`  ${n.name.padEnd(9)}${n.summary}`).join(`
`);return`route-gate ${$}: gate deployments on Gateway API Route status

Usage:
  route-gate <command> [flags]
  route-gate <command> --help | route-gate help <command>
  route-gate --help | --version

Commands:
${e}

Flags (each command takes the ones its help lists):
${v(m)}

${C}
`}i(g,"usage");function k(e){return`route-gate ${e.name}: ${e.summary}

Usage:
${e.usage.map(n=>`  route-gate ${n}`).join(`
`)}

Flags:
${v(m.filter(n=>e.takes(n.name)),e.renames)}

${C}
`}i(k,"verbUsage");async function Q(e){try{if(e.length===0)return process.stdout.write(g()),2;let n=M(e);if("help"in n)return process.stdout.write(n.help),0;let{verb:r,values:t}=n,s=w(c=>t.get(c),r.command,{apply:r.apply,kubeconfig:"path"}),{runCommand:a}=await import("./command-run-BFW75XBD.js");return await a(s)}catch(n){let r=S(n),t=n instanceof Error?n.message:String(n);return process.stderr.write(`${b(`route-gate: ${t}`)}
`),r===1&&process.env.ROUTE_GATE_DEBUG&&n instanceof Error&&process.stderr.write(`${n.stack??""}
`),r}}i(Q,"main");export{Q as main};
