// verify-traffic against the real control plane, through the committed Action bundle: Traefik is the
// data plane, serving its Gateway on loopback in front of backends in network namespaces the harness
// makes (tested here too). Traffic goes only to loopback or into those namespaces.
import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, describe, expect, it } from 'vitest'
import type { Report } from '../../src/model/types.ts'
import { ENV_FILE_VARIABLE, envFilePath } from '../cluster/env.ts'
import { runAction, type ActionResult } from '../helpers/action.ts'
import {
  applyYaml,
  clusterEnv,
  controller,
  kube,
  testHostname,
  testNamespace
} from '../helpers/cluster.ts'
import {
  backendYaml,
  endpointSliceYaml,
  removeTestNetworks,
  serviceYaml,
  startNetnsBackend,
  type NetnsBackend
} from '../helpers/netns.ts'
import { httpRouteYaml } from '../helpers/manifest-files.ts'
import { expectValidReport } from '../helpers/schema.ts'

const clusterDir = path.dirname(process.env[ENV_FILE_VARIABLE] ?? envFilePath())
const backends: NetnsBackend[] = []
afterAll(async () => {
  await Promise.all(backends.splice(0).map((b) => b.stop()))
})

async function backend(): Promise<NetnsBackend> {
  const started = await startNetnsBackend(clusterDir)
  backends.push(started)
  return started
}

async function gate(inputs: Record<string, string>, files: Record<string, string> = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-traffic-'))
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text)
  return runAction(inputs, { env: { KUBECONFIG: clusterEnv().kubeconfig }, cwd: dir })
}

async function reportOf(result: ActionResult): Promise<Report> {
  const report = JSON.parse(await readFile(result.outputs['report-file']!, 'utf8')) as Report
  expectValidReport(report)
  return report
}

const netnsList = (): string => execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })

describe('network-namespace backends', () => {
  it('answer over their veth, are accepted as EndpointSlice addresses, and are removed', async () => {
    const b = await backend()
    expect(b.address).toMatch(/^10\.213\.\d+\.\d+$/)
    b.answer({ default: { status: 418, body: 'teapot' } })
    const answer = await fetch(`http://${b.address}:${b.port}/probe`)
    expect([answer.status, await answer.text()]).toEqual([418, 'teapot'])
    expect(b.requests()).toEqual([expect.objectContaining({ method: 'GET', url: '/probe' })])

    const ns = await testNamespace('traffic-netns')
    await applyYaml(backendYaml('web', b), ns)
    const slices = await kube().objects.list('discovery.k8s.io/v1', 'EndpointSlice', ns)
    expect(JSON.stringify(slices.items)).toContain(b.address)

    expect(netnsList()).toContain(b.netns)
    await b.stop()
    backends.splice(backends.indexOf(b), 1)
    expect(netnsList()).not.toContain(b.netns)
  })

  it('left behind by a test are removed with the cluster (cluster:down)', async () => {
    const leftover = await startNetnsBackend(clusterDir)
    expect(netnsList()).toContain(leftover.netns)
    expect(removeTestNetworks(clusterDir)).toBeGreaterThanOrEqual(1)
    expect(netnsList()).not.toContain(leftover.netns)
  })
})

describe('verify-traffic through the committed Action bundle', () => {
  it('an address nobody listens on: unreachable, exit 1 at the deadline, names gateway-address', async () => {
    const ns = await testNamespace('traffic-unreachable')
    const gw = clusterEnv().gateway
    const route = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  parentRefs:
  - name: ${gw.name}
    namespace: ${gw.namespace}
    sectionName: http
  hostnames: [${testHostname(ns, 'web')}]
  rules:
  - backendRefs:
    - name: web
      port: 8080
`
    const result = await gate(
      {
        manifests: 'app.yaml',
        namespace: ns,
        timeout: '8s',
        'verify-traffic': 'true',
        // loopback, where nothing listens on the listener's port 80
        'gateway-address': '127.0.0.77'
      },
      { 'app.yaml': `${serviceYaml('web')}---\n${route}` }
    )
    expect(result.code, result.stdout).toBe(1)
    const report = await reportOf(result)
    expect(report.timedOut).toBe(true)
    const parent = report.routes[0]?.parents[0]
    expect(parent).toMatchObject({
      verdict: 'failed',
      probe: { state: 'unreachable', last: { address: '127.0.0.77:80' } }
    })
    expect(parent?.probe?.last?.error).toMatch(/^ECONNREFUSED/)
    // the status was ready: only the probe failed the parent
    expect(parent?.conditions?.find((c) => c.type === 'Accepted')?.status).toBe('True')
    expect(parent?.problems.map((p) => p.reason)).toEqual(['Unreachable'])
    expect(result.summary).toContain('gateway-address')
    expect(result.summary).toMatch(/traffic: unreachable/)
  })
})

function route(o: { name: string; hostname: string; backend: string; match?: string }): string {
  return httpRouteYaml({
    name: o.name,
    gateway: controller('traefik').gateway,
    sectionName: 'http',
    hostname: o.hostname,
    backend: o.backend,
    path: o.match ?? '{ type: PathPrefix, value: /shop }'
  })
}

/** One request through Traefik's http listener on loopback, with `host` as Host; its status. */
function throughTraefik(host: string, urlPath: string): Promise<number | undefined> {
  const port = controller('traefik').listeners.find((l) => l.name === 'http')?.port
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: urlPath, headers: { host } },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode))
      }
    )
    req.on('error', reject)
    req.end()
  })
}

const probeOf = (report: Report) => report.routes[0]?.parents[0]?.probe

describe('verify-traffic through Traefik', () => {
  it('a ready Route whose backend answers: serving, exit 0', async () => {
    const ns = await testNamespace('traffic-serving')
    const host = testHostname(ns, 'web')
    const b = await backend()
    b.answer({ default: { status: 200, body: 'shop' } })
    const result = await gate(
      {
        manifests: 'app.yaml',
        namespace: ns,
        timeout: '60s',
        'verify-traffic': 'true',
        'traffic-show-body': 'true'
      },
      {
        'app.yaml': `${serviceYaml('web')}---\n${endpointSliceYaml('web', b)}---\n${route({ name: 'web', hostname: host, backend: 'web' })}`
      }
    )
    expect(result.code, result.stdout).toBe(0)
    const report = await reportOf(result)
    // the report file keeps Traefik's own no-route body (traffic-show-body); the output does not
    expect(probeOf(report)).toMatchObject({
      state: 'serving',
      last: { status: 200, url: expect.stringContaining(`http://${host}:`) },
      noRoute: { status: 404, excerpt: '404 page not found' }
    })
    expect(result.outputs.report).not.toContain('404 page not found')
    expect(b.requests()).toContainEqual(
      expect.objectContaining({ url: '/shop', host: expect.stringContaining(host) })
    )
    expect(result.stdout).toMatch(/serving \(3 rounds in a row routed; traffic verified after/)
  })

  it('the EndpointSlice comes only while the gate waits, its backend not ready at first: not serving, then serving, exit 0', async () => {
    const ns = await testNamespace('traffic-late')
    const host = testHostname(ns, 'web')
    const b = await backend()
    await applyYaml(
      `${serviceYaml('web')}---\n${route({ name: 'web', hostname: host, backend: 'web' })}`,
      ns
    )
    const running = gate({
      routes: 'httproute/web',
      namespace: ns,
      timeout: '90s',
      'verify-traffic': 'true'
    })
    await sleep(3000)
    expect(b.requests()).toEqual([])
    // the backend is not ready at first: the probe's requests reach it and get 503
    b.answer({ default: { status: 503, body: 'starting' } })
    await applyYaml(endpointSliceYaml('web', b), ns)
    while (b.requests().length === 0) await sleep(100)
    b.answer({ default: { status: 200, body: 'shop' } })
    const result = await running
    expect(result.code, result.stdout).toBe(0)
    expect(result.stdout).toMatch(
      /not serving yet: GET http:\/\/web\.[^ ]+\/shop got 503 \(gateway-error\)/
    )
    expect(probeOf(await reportOf(result))).toMatchObject({
      state: 'serving',
      last: { status: 200 }
    })
  })

  it('a backend that itself answers 404 on the route’s path: serving', async () => {
    const ns = await testNamespace('traffic-404')
    const host = testHostname(ns, 'web')
    const b = await backend()
    b.answer({
      default: { status: 404, body: '{"error":"no such item"}', contentType: 'application/json' }
    })
    const result = await gate(
      { manifests: 'app.yaml', namespace: ns, timeout: '60s', 'verify-traffic': 'true' },
      {
        'app.yaml': `${serviceYaml('web')}---\n${endpointSliceYaml('web', b)}---\n${route({ name: 'web', hostname: host, backend: 'web' })}`
      }
    )
    expect(result.code, result.stdout).toBe(0)
    expect(probeOf(await reportOf(result))).toMatchObject({
      state: 'serving',
      last: { status: 404 }
    })
  })

  it('an older Route serves the hostname with a more specific match: not serving on the shadowed path, exit 1', async () => {
    const ns = await testNamespace('traffic-shadow')
    const host = testHostname(ns, 'shop')
    const older = await backend()
    older.answer({ default: { status: 200, body: 'older' } })
    await applyYaml(
      `${serviceYaml('older')}---\n${endpointSliceYaml('older', older)}---\n${route({ name: 'older', hostname: host, backend: 'older', match: '{ type: Exact, value: /shop }' })}`,
      ns
    )
    const newer = await backend()
    newer.answer({ default: { status: 200, body: 'newer' } })
    const result = await gate(
      { manifests: 'app.yaml', namespace: ns, timeout: '15s', 'verify-traffic': 'true' },
      {
        'app.yaml': `${serviceYaml('newer')}---\n${endpointSliceYaml('newer', newer)}---\n${route({ name: 'newer', hostname: host, backend: 'newer' })}`
      }
    )
    expect(result.code, result.stdout).toBe(1)
    const report = await reportOf(result)
    expect(probeOf(report)?.state).toBe('not-serving')
    expect(report.routes[0]?.parents[0]?.problems[0]?.message).toMatch(
      /got 200, but not from this Route: HTTPRoute traffic-shadow-\w+\/older claims it with Exact path \/shop/
    )
    expect(result.summary).toMatch(/change or remove the other Route/)
    expect(newer.requests()).toEqual([])
  })

  it('a Route that stops being ready while its traffic is probed: not serving, exit 1', async () => {
    const ns = await testNamespace('traffic-changed')
    const host = testHostname(ns, 'web')
    const b = await backend()
    b.answer({ default: { status: 200, body: 'shop' } })
    const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-traffic-'))
    await writeFile(
      path.join(dir, 'app.yaml'),
      `${serviceYaml('web')}---\n${endpointSliceYaml('web', b)}---\n${route({ name: 'web', hostname: host, backend: 'web' })}`
    )
    let changed: Promise<unknown> | undefined
    const result = await runAction(
      {
        manifests: 'app.yaml',
        namespace: ns,
        timeout: '60s',
        'verify-traffic': 'true',
        // long enough a streak that the change lands while it runs
        'traffic-successes': '20'
      },
      {
        env: { KUBECONFIG: clusterEnv().kubeconfig },
        cwd: dir,
        onStdout: (log) => {
          if (changed !== undefined || !log.includes('Verifying traffic')) return
          // a new generation whose backend does not exist: the status no longer says ready
          changed = applyYaml(route({ name: 'web', hostname: host, backend: 'missing' }), ns)
        }
      }
    )
    await changed
    expect(changed).toBeDefined()
    expect(result.code, result.stdout).toBe(1)
    const report = await reportOf(result)
    const parent = report.routes[0]?.parents[0]
    expect(parent?.probe?.state).toBe('not-serving')
    expect(parent?.probe?.why).toMatch(/^the status stopped being ready while traffic was probed: /)
    expect(parent?.problems.map((p) => p.reason)).toContain('StatusDegraded')
  })

  it('verify-traffic off: no request is sent', async () => {
    const ns = await testNamespace('traffic-off')
    const host = testHostname(ns, 'web')
    const b = await backend()
    const result = await gate(
      { manifests: 'app.yaml', namespace: ns, timeout: '60s' },
      {
        'app.yaml': `${serviceYaml('web')}---\n${endpointSliceYaml('web', b)}---\n${route({ name: 'web', hostname: host, backend: 'web' })}`
      }
    )
    expect(result.code, result.stdout).toBe(0)
    expect(probeOf(await reportOf(result))).toBeUndefined()
    expect(b.requests()).toEqual([])
    // a request through Traefik does reach the backend and is counted (once Traefik has the Route)
    let status: number | undefined
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = await throughTraefik(host, '/shop')
      if (status !== 200) await sleep(200)
    }
    expect(status).toBe(200)
    expect(b.requests()).toHaveLength(1)
  })
})
