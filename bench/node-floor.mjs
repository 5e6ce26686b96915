// The reaction floor of the runtime: a bare Node watcher that does only what a gate must (one TLS
// watch of the Route, each event parsed, exit 0 once every parent has Accepted and ResolvedRefs
// True), loading nothing but Node's https. The latency figure runs it beside route-gate and
// `kubectl wait`, so the table shows how much of route-gate's reaction is Node itself (start-up
// aside: it is measured from the status write to the exit). Reads the test plane's kubeconfig only.
// Plain JavaScript: Node would load its TypeScript stripper for a .ts file, which the floor must not
// count.
import { readFileSync } from 'node:fs'
import https from 'node:https'

const [collection, namespace, name] = process.argv.slice(2)
const kubeconfig = readFileSync(process.env.KUBECONFIG ?? '', 'utf8')
const field = (key) => new RegExp(`${key}: (\\S+)`).exec(kubeconfig)?.[1] ?? ''
const data = (key) => Buffer.from(field(key), 'base64')

function ready(event) {
  const parents = event.object?.status?.parents ?? []
  const isTrue = (conditions = [], type) =>
    conditions.some((c) => c.type === type && c.status === 'True')
  return (
    parents.length > 0 &&
    parents.every((p) => isTrue(p.conditions, 'Accepted') && isTrue(p.conditions, 'ResolvedRefs'))
  )
}

const path = `/apis/gateway.networking.k8s.io/v1/namespaces/${namespace}/${collection}`
const query = `?watch=1&fieldSelector=${encodeURIComponent(`metadata.name=${name}`)}`
const options = {
  ca: data('certificate-authority-data'),
  cert: data('client-certificate-data'),
  key: data('client-key-data')
}
https.get(field('server') + path + query, options, (response) => {
  let pending = ''
  response.setEncoding('utf8')
  response.on('data', (chunk) => {
    pending += chunk
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end)
      pending = pending.slice(end + 1)
      if (ready(JSON.parse(line))) process.exit(0)
    }
  })
})
