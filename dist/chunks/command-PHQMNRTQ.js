import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{p as E,r as k,s as w}from"./chunk-22C2TFXI.js";import"./chunk-AGM4PDEV.js";import{a as S}from"./chunk-FXGDQ35O.js";import"./chunk-U7O2OSJZ.js";import{a as d,c as $}from"./chunk-SQNJL32M.js";import"./chunk-4FLDNSR7.js";import"./chunk-O4PYE5NI.js";import{d as b,e as y}from"./chunk-5FFFNLHM.js";import{a}from"./chunk-5I7R3ZRB.js";import{parseArgs as T}from"node:util";var R=new Set(["fail-on","watch-duration","previous","state-out"]),V=new Set(["manifests","fail-fast","heartbeat","verify-traffic","gateway-address","expect-status","traffic-ca","traffic-skip-tls-verify","traffic-allowed-cidrs","traffic-show-body"]),g=[{name:"check",summary:"read-only: locate Routes, wait until every parent is ready, judge",usage:["check (--routes KIND/NAME | -l SELECTOR | --manifests FILES) [flags]","check --from-file DUMP|- [flags]      judge a saved dump: no cluster, no waiting"],command:"gate",apply:!1,takes:a(e=>!R.has(e)&&e!=="dry-run","takes")},{name:"apply",summary:"server-side apply --manifests (dry-run of every document first), then gate",usage:["apply --manifests FILES [flags]"],command:"gate",apply:!0,takes:a(e=>!R.has(e)&&e!=="from-file","takes")},{name:"monitor",summary:"judge every Route in scope and report what changed since --previous",usage:["monitor [-n NAMESPACE | -A] [--previous FILE] [--state-out FILE] [flags]"],command:"monitor",apply:!1,takes:a(e=>!V.has(e)&&e!=="dry-run","takes")},{name:"dump",summary:"read-only: write the cluster objects predict needs (never Secrets) to a file",usage:["dump -o FILE|- [--kubeconfig FILE] [--context NAME]"],command:"dump",apply:!1,takes:a(e=>["output-file","kubeconfig","context"].includes(e),"takes"),renames:{o:"output-file",output:"output-file"}}],f=E.filter(e=>e.actionOnly!==!0),v=new Set(f.filter(e=>e.default==="true"||e.default==="false").map(e=>e.name)),P=new Set(["manifests","routes"]),x={n:"namespace",A:"all-namespaces",l:"selector",o:"format"},U={output:"format"};function F(e){let[t="",...r]=e;if(t==="--help"||t==="-h")return{help:h()};if(t==="help")return{help:r[0]===void 0?h():O(I(r[0]))};let n=I(t);return r.includes("--help")||r.includes("-h")?{help:O(n)}:{verb:n,values:j(n,r)}}a(F,"parseCommandLine");function I(e){let t=g.find(s=>s.name===e);if(t)return t;let r=g.map(s=>s.name),n=w(e,r,1)[0];throw new d(`Unknown command "${e}": ${n===void 0?"":`did you mean ${n}? `}use one of ${r.join(", ")} (see route-gate --help)`)}a(I,"verbNamed");function j(e,t){let r=f.filter(o=>e.takes(o.name)),n=Object.fromEntries(r.map(o=>[o.name,{type:"string",multiple:!0}])),s;try{s=T({args:_(t,e),options:n,strict:!0,allowPositionals:!0})}catch(o){throw D(e,o)}let[i]=s.positionals;if(i!==void 0)throw new d(`Unexpected argument "${i}": flags look like --name value (see route-gate ${e.name} --help)`);let u=new Map;for(let[o,m]of Object.entries(s.values)){let c=m??[];if(c.length>1&&!P.has(o))throw new d(`Flag --${o} is given twice`);u.set(o,c.join(`
`))}return u}a(j,"flagValues");function _(e,t){let r=[];for(let n=0;n<e.length;n++){let s=e[n],i=/^-([a-zA-Z])(?:=?(.*))?$/s.exec(s),u=/^--([a-z-]+)(=.*)?$/s.exec(s),o,m,c=i?t.renames?.[i[1]]??x[i[1]]:void 0;if(i&&c!==void 0?(o=c,m=i[2]===""?void 0:i[2]):u&&(o=t.renames?.[u[1]]??U[u[1]]??u[1],m=u[2]?.slice(1)),o===void 0){r.push(s);continue}if(m!==void 0)r.push(`--${o}=${m}`);else if(v.has(o)){let l=e[n+1],p=l!==void 0&&/^(true|false|yes|no|on|off)$/i.test(l);r.push(`--${o}=${p?l:"true"}`),p&&n++}else e[n+1]===void 0?r.push(`--${o}`):r.push(`--${o}=${e[++n]}`)}return r}a(_,"normalized");function D(e,t){let r=t,n=/'(-{1,2}[^'\s=<]+)/.exec(r.message??"")?.[1]??"",s=n.replace(/^-+/,"");if(r.code==="ERR_PARSE_ARGS_INVALID_OPTION_VALUE")return new d(`Flag --${s} needs a value`);let i=`see route-gate ${e.name} --help`,u=g.find(c=>c!==e&&c.takes(s)&&f.some(l=>l.name===s));if(u)return new d(`Flag ${n} belongs to route-gate ${u.name}, not ${e.name} (${i})`);let o=n.startsWith("--")?w(s,f.filter(c=>e.takes(c.name)).map(c=>c.name),1)[0]:void 0,m=o===void 0?"":`: did you mean --${o}?`;return new d(`Unknown flag ${n}${m} (${i})`)}a(D,"flagError");function L(e,t={}){let r=a(n=>{let s=Object.entries({...x,...t}).find(([i,u])=>u===n&&i.length===1)?.[0];return s===void 0?"":`-${s}, `},"shortOf");return e.map(n=>{let s=v.has(n.name)?"":" <value>",i=n.default!==void 0?` (default: ${n.default})`:"";return`  ${r(n.name)}--${n.name}${s}
      ${n.description.replaceAll("`","")}${i}`}).join(`
`)}a(L,"flagHelp");var A=`Exit codes: 0 ready, 1 not ready (failed or pending), 2 bad input or usage, 3 cluster access.
monitor exits 1 as --fail-on says: degraded (default), any or never.`;function h(){let e=g.map(t=>`  ${t.name.padEnd(9)}${t.summary}`).join(`
`);return`route-gate ${S}: gate deployments on Gateway API Route status

Usage:
  route-gate <command> [flags]
  route-gate <command> --help | route-gate help <command>
  route-gate --help | --version

Commands:
${e}

Flags (each command takes the ones its help lists):
${L(f)}

${A}
`}a(h,"usage");function O(e){return`route-gate ${e.name}: ${e.summary}

Usage:
${e.usage.map(t=>`  route-gate ${t}`).join(`
`)}

Flags:
${L(f.filter(t=>e.takes(t.name)),e.renames)}

${A}
`}a(O,"verbUsage");async function M(e){if(e.format==="json")return(await import("./json-4IQ3RPUD.js")).renderJson;if(e.format==="yaml")return(await import("./yaml-JHU6732D.js")).renderYaml;if(e.format==="markdown")return(await import("./summary-BYETX5NH.js")).renderSummary;let t=process.stdout.isTTY===!0&&!process.env.NO_COLOR,{renderText:r}=await import("./text-ROCPLWFH.js");return n=>r(n,{color:t})}a(M,"loadRenderer");async function N(e){if(e.kubeconfigFile!==void 0){let{checkRegularFile:t}=await import("./files-UHSRS5FL.js");t(e.kubeconfigFile,`Invalid kubeconfig "${e.kubeconfigFile}"`)}return(await import("./connect-LPNDFG2I.js")).connect({context:e.context,env:e.kubeconfigFile===void 0?process.env:{...process.env,KUBECONFIG:e.kubeconfigFile},mask:a(()=>{},"mask")})}a(N,"connect");async function Q(e){try{if(e.length===0)return process.stdout.write(h()),2;let t=F(e);if("help"in t)return process.stdout.write(t.help),0;let{verb:r,values:n}=t,s=k(p=>n.get(p),r.command,{apply:r.apply,kubeconfig:"path"});if(s.command==="dump"){let{runDump:p}=await import("./dump-F7CDNZ6L.js");return await p(s,{connect:N,cwd:process.cwd(),now:Date.now,stdout:process.stdout}),0}let i=M(s);i.catch(()=>{});let{run:u,runExitCode:o}=await import("./run-CCDC4EJZ.js"),m=await u(s,{connect:N,log:a(p=>process.stderr.write(`${y(p)}
`),"log"),cwd:process.cwd(),now:Date.now});if(s.reportFile!==void 0){let[{writeUserFile:p},{renderJson:C}]=await Promise.all([import("./files-UHSRS5FL.js"),import("./json-4IQ3RPUD.js")]);await p(s.reportFile,C(m)+`
`,"report-file")}let c=await i,{publicReport:l}=await import("./json-4IQ3RPUD.js");return process.stdout.write(b(c(l(m)))+`
`),o(m,s)}catch(t){let r=$(t),n=t instanceof Error?t.message:String(t);return process.stderr.write(`${y(`route-gate: ${n}`)}
`),r===1&&process.env.ROUTE_GATE_DEBUG&&t instanceof Error&&process.stderr.write(`${t.stack??""}
`),r}}a(Q,"main");export{Q as main};
