// The live gate's cost per watch event, without a cluster: a loopback imitation of the API server
// lists N HTTPRoutes without status, then streams 7,300 events while the gate (dist/cli.js check -A)
// waits on all N: 800 Routes turning ready and back four times, then 900 turning ready. The gate's
// CPU time (from /proc) from the moment it is idle after its first judged list to the last event,
// per event, at 1,000, 5,000 and 50,000 Routes: the test plane cannot write 50,000 statuses in a
// bench's time. /proc counts in 10 ms ticks, so the window is made long. Goal: flat, ≤ 1.2× from
// 1,000 to 50,000.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import type { Budget } from './report.ts'

const G = 'gateway.networking.k8s.io'
const CONTROLLER = 'gateway.envoyproxy.io/gatewayclass-controller'
const PARENT_REF = {
  group: G,
  kind: 'Gateway',
  name: 'edge',
  namespace: 'infra',
  sectionName: 'http'
}
const SIZES = [1000, 5000, 50_000] as const
/** Routes flipped ready and back in each round, the rounds, and the Routes turned ready at the end */
const FLIPPED = 800
const ROUNDS = 8
const FINAL = 900
const EVENTS = FLIPPED * ROUNDS + FINAL
/** how long the gate's CPU time must stand still before the events start */
const IDLE_MS = 300
const NAMESPACES = 50
const LIMIT = 1.2
const WAIT_MS = 300_000
/** USER_HZ: /proc reports CPU time in these ticks */
const TICKS_PER_SECOND = 100

const condition = (type: string): object => ({
  type,
  status: 'True',
  reason: type,
  message: '',
  observedGeneration: 1,
  lastTransitionTime: '2026-01-01T00:00:00Z'
})

function route(i: number, ready: boolean, resourceVersion: number): object {
  return {
    apiVersion: `${G}/v1`,
    kind: 'HTTPRoute',
    metadata: {
      name: `tenant-${i}`,
      namespace: `tenants-${i % NAMESPACES}`,
      generation: 1,
      resourceVersion: String(resourceVersion)
    },
    spec: { parentRefs: [PARENT_REF], rules: [{ backendRefs: [{ name: `svc-${i}`, port: 80 }] }] },
    ...(ready
      ? {
          status: {
            parents: [
              {
                parentRef: PARENT_REF,
                controllerName: CONTROLLER,
                conditions: [condition('Accepted'), condition('ResolvedRefs')]
              }
            ]
          }
        }
      : {})
  }
}

const WORLD: Record<string, object[]> = {
  gatewayclasses: [
    {
      apiVersion: `${G}/v1`,
      kind: 'GatewayClass',
      metadata: { name: 'eg' },
      spec: { controllerName: CONTROLLER }
    }
  ],
  gateways: [
    {
      apiVersion: `${G}/v1`,
      kind: 'Gateway',
      metadata: { name: 'edge', namespace: 'infra', generation: 1 },
      spec: { gatewayClassName: 'eg', listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] }
    }
  ],
  referencegrants: [],
  namespaces: [],
  services: []
}

function resources(groupVersion: string, kinds: [string, string, boolean][]): object {
  return {
    kind: 'APIResourceList',
    groupVersion,
    resources: kinds.map(([kind, name, namespaced]) => ({
      name,
      singularName: kind.toLowerCase(),
      kind,
      namespaced,
      verbs: ['get', 'list', 'watch']
    }))
  }
}

/** The imitation: discovery, the lists, and one watch of HTTPRoutes the bench feeds. */
async function serve(size: number): Promise<{
  url: string
  watching: Promise<http.ServerResponse>
  close: () => void
}> {
  let opened: (response: http.ServerResponse) => void = () => undefined
  const watching = new Promise<http.ServerResponse>((resolve) => (opened = resolve))
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://bench')
    const json = (body: unknown): void => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    }
    const plural = url.pathname.split('/').at(-1) ?? ''
    if (url.pathname === `/apis/${G}`) {
      const version = { groupVersion: `${G}/v1`, version: 'v1' }
      return json({ kind: 'APIGroup', name: G, versions: [version], preferredVersion: version })
    }
    if (url.pathname === `/apis/${G}/v1`) {
      return json(
        resources(`${G}/v1`, [
          ['GatewayClass', 'gatewayclasses', false],
          ['Gateway', 'gateways', true],
          ['HTTPRoute', 'httproutes', true],
          ['ReferenceGrant', 'referencegrants', true]
        ])
      )
    }
    if (url.pathname === '/api/v1') {
      return json(
        resources('v1', [
          ['Namespace', 'namespaces', false],
          ['Service', 'services', true]
        ])
      )
    }
    if (plural === 'httproutes' && url.searchParams.get('watch') === 'true') {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.flushHeaders()
      return opened(response)
    }
    if (plural === 'httproutes') {
      const items = Array.from({ length: size }, (_, i) => route(i, false, 1))
      return json({
        kind: 'HTTPRouteList',
        apiVersion: `${G}/v1`,
        metadata: { resourceVersion: '1' },
        items
      })
    }
    const world = WORLD[plural]
    if (world)
      return json({
        kind: 'List',
        apiVersion: 'v1',
        metadata: { resourceVersion: '1' },
        items: world
      })
    response.writeHead(404, { 'content-type': 'application/json' })
    response.end(
      JSON.stringify({
        kind: 'Status',
        status: 'Failure',
        code: 404,
        reason: 'NotFound',
        message: 'not found'
      })
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    watching,
    close: () => {
      server.closeAllConnections()
      server.close()
    }
  }
}

function kubeconfig(server: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- {name: bench, cluster: {server: "${server}", insecure-skip-tls-verify: true}}`,
    'users:',
    '- {name: bench, user: {token: bench-token}}',
    'contexts:',
    '- {name: bench, context: {cluster: bench, user: bench}}',
    'current-context: bench',
    ''
  ].join('\n')
}

/** User and system CPU time of a live process, in ms. */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND
}

/** The CPU time once it has stood still for IDLE_MS: the list's parse and collections are behind. */
async function idle(pid: number): Promise<number> {
  let last = cpuMsOf(pid)
  for (let waited = 0; waited < WAIT_MS; waited += IDLE_MS) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS))
    const now = cpuMsOf(pid)
    if (now === last) return now
    last = now
  }
  return last
}

/** The gate's CPU per event at `size` Routes, in ms. */
async function perEvent(repo: string, home: string, size: number): Promise<number> {
  const api = await serve(size)
  const config = path.join(home, `kubeconfig-${size}`)
  await writeFile(config, kubeconfig(api.url), { mode: 0o600 })
  const args = [
    path.join(repo, 'dist', 'cli.js'),
    'check',
    '-A',
    '--kinds',
    'HTTPRoute',
    '--timeout',
    '10m'
  ]
  const gate = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH, HOME: home, KUBECONFIG: config },
    cwd: repo,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let log = ''
  const waiters: { pattern: string; resolve: () => void }[] = []
  const hear = (chunk: Buffer): void => {
    // only the tail can hold a line that has not matched yet
    log = (log + chunk.toString()).slice(-64 * 1024)
    for (const w of [...waiters]) {
      if (log.includes(w.pattern)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve()
      }
    }
  }
  gate.stdout.on('data', hear)
  gate.stderr.on('data', hear)
  const said = (pattern: string): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      waiters.push({ pattern, resolve })
      setTimeout(
        () => reject(new Error(`no "${pattern}" from the gate at ${size} Routes:\n${log}`)),
        WAIT_MS
      ).unref()
    })
  try {
    const stream = await api.watching
    await said(`0 of ${size} Routes ready`)
    const before = await idle(gate.pid!)
    let version = 2
    const send = (i: number, ready: boolean): void => {
      stream.write(`${JSON.stringify({ type: 'MODIFIED', object: route(i, ready, version++) })}\n`)
    }
    for (let round = 0; round < ROUNDS; round++)
      for (let i = 0; i < FLIPPED; i++) send(i, round % 2 === 0)
    for (let i = 0; i < FINAL; i++) send(i, true)
    await said(`${FINAL} of ${size} Routes ready`)
    return (cpuMsOf(gate.pid!) - before) / EVENTS
  } finally {
    gate.kill('SIGKILL')
    api.close()
  }
}

export async function measureGateEvents(
  repo: string,
  home: string,
  log: (line: string) => void
): Promise<Budget> {
  const costs: number[] = []
  for (const size of SIZES) {
    const cost = await perEvent(repo, home, size)
    log(`gate CPU per event at ${size.toLocaleString('en-US')} Routes: ${cost.toFixed(3)} ms`)
    costs.push(cost)
  }
  const ratio = costs.at(-1)! / costs[0]!
  return {
    name: `gate CPU per watch event (${EVENTS} events on a loopback stream), ${SIZES.map((s) => s.toLocaleString('en-US')).join(' / ')} Routes: ${costs.map((c) => `${c.toFixed(3)} ms`).join(' / ')}`,
    measured: `${ratio.toFixed(2)}× (50,000 / 1,000)`,
    limit: `≤ ${LIMIT}×`,
    ok: ratio <= LIMIT
  }
}

if (import.meta.main) {
  const repo = path.resolve(import.meta.dirname, '..')
  console.log(await measureGateEvents(repo, '/tmp', console.log))
}
