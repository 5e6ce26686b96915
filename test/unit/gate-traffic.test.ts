// verify-traffic in the gate, against a fake cluster and a loopback "data plane": the status being
// ready starts the probes, the verdict waits for them, and without the input nothing is sent.
import { afterEach, describe, expect, it } from 'vitest'
import { runGate } from '../../src/jobs/gate/gate.ts'
import { parseSettings } from '../../src/inputs/parse.ts'
import type { KubeObject, RouteObject } from '../../src/model/types.ts'
import { renderSummary } from '../../src/report/summary.ts'
import { renderText } from '../../src/report/terminal.ts'
import { FakeCluster } from '../helpers/fake-cluster.ts'
import { closedPort, dataPlane, startServer, type TestServer } from '../helpers/probe-servers.ts'
import { expectValidReport } from '../helpers/schema.ts'
import { entry, gwRef, healthy } from '../fixtures/model/build.ts'

const servers: TestServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

function gateway(port: number, address = '127.0.0.1'): KubeObject {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'Gateway',
    metadata: { name: 'edge', namespace: 'shop' },
    spec: {
      gatewayClassName: 'c',
      listeners: [
        { name: 'web', port, protocol: 'HTTP', allowedRoutes: { namespaces: { from: 'Same' } } }
      ]
    },
    status: { addresses: [{ type: 'IPAddress', value: address }] }
  }
}

function readyRoute(kind: RouteObject['kind'] = 'HTTPRoute'): RouteObject {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind,
    metadata: { name: 'web', namespace: 'shop', generation: 2 },
    spec: {
      parentRefs: [gwRef('edge')],
      hostnames: ['shop.example.com'],
      rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/cart' } }] }]
    },
    status: { parents: [entry(gwRef('edge'), healthy(2))] }
  }
}

async function gate(values: Record<string, string>, cluster: FakeCluster) {
  const lines: string[] = []
  const report = await runGate(
    parseSettings((name) => ({ routes: 'httproute/shop/web', ...values })[name], 'gate'),
    { cluster, log: (line) => lines.push(line), cwd: process.cwd(), now: Date.now }
  )
  return { report, lines }
}

async function serveShop(): Promise<TestServer> {
  const server = await startServer(
    dataPlane('shop.example.com', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end('cart')
    })
  )
  servers.push(server)
  return server
}

describe('runGate with verify-traffic', () => {
  it('sends no request without verify-traffic', async () => {
    const server = await serveShop()
    const cluster = new FakeCluster()
    cluster.world.gateways = [gateway(server.port)]
    cluster.routes = [readyRoute()]
    const { report } = await gate({ timeout: '10s' }, cluster)
    expect(report.verdict).toBe('ready')
    expect(server.seen).toEqual([])
    expect(report.routes[0]?.parents[0]?.probe).toBeUndefined()
  })

  it('is ready once the Route serves, and reports the probe per parent', async () => {
    const server = await serveShop()
    const cluster = new FakeCluster()
    cluster.world.gateways = [gateway(server.port)]
    cluster.routes = [readyRoute()]
    const { report, lines } = await gate({ timeout: '10s', 'verify-traffic': 'true' }, cluster)
    expect(report.verdict).toBe('ready')
    expect(report.timedOut).toBe(false)
    expect(report.routes[0]?.parents[0]?.probe).toMatchObject({
      state: 'serving',
      last: { status: 200 }
    })
    expect(server.seen.map((r) => `${r.host} ${r.url}`)).toContain('shop.example.com /cart')
    expect(lines.join('\n')).toMatch(/serving \(3 rounds in a row routed; traffic verified/)
    expectValidReport(report)
    expect(renderText(report, { color: false })).toMatch(/traffic verified/)
  })

  it('fails at the deadline when the Gateway is unreachable, naming gateway-address', async () => {
    const cluster = new FakeCluster()
    cluster.world.gateways = [gateway(await closedPort())]
    cluster.routes = [readyRoute()]
    const { report } = await gate({ timeout: '1s', 'verify-traffic': 'true' }, cluster)
    expect(report.verdict).toBe('failed')
    expect(report.timedOut).toBe(true)
    const parent = report.routes[0]?.parents[0]
    expect(parent).toMatchObject({ verdict: 'failed', probe: { state: 'unreachable' } })
    expect(parent?.problems.map((p) => p.reason)).toEqual(['Unreachable'])
    expectValidReport(report)
    const summary = renderSummary(report)
    expect(summary).toMatch(/traffic: unreachable/)
    expect(summary).toMatch(/gateway-address/)
  })

  it('uses gateway-address, and fails an HTTPRoute that cannot be probed', async () => {
    const server = await serveShop()
    const cluster = new FakeCluster()
    cluster.world.gateways = [gateway(server.port, '192.0.2.1')]
    cluster.routes = [readyRoute()]
    const viaAddress = await gate(
      { timeout: '10s', 'verify-traffic': 'true', 'gateway-address': '127.0.0.1' },
      cluster
    )
    expect(viaAddress.report.verdict).toBe('ready')
    cluster.world.gateways = []
    const { report } = await gate({ timeout: '10s', 'verify-traffic': 'true' }, cluster)
    expect(report.routes[0]?.parents[0]).toMatchObject({
      verdict: 'failed',
      probe: { state: 'not-probed' },
      problems: [{ reason: 'NotProbed', severity: 'error' }]
    })
  })

  it('waits for the Gateway to get an address, then probes it', async () => {
    const server = await serveShop()
    const cluster = new FakeCluster()
    const withAddress = gateway(server.port)
    cluster.world.gateways = [{ ...withAddress, status: {} }]
    cluster.routes = [readyRoute()]
    setTimeout(() => (cluster.world.gateways = [withAddress]), 300)
    const { report, lines } = await gate({ timeout: '20s', 'verify-traffic': 'true' }, cluster)
    expect(report.verdict).toBe('ready')
    expect(lines).toContain('Waiting for an address in the status of the parent Gateways')
    expect(report.routes[0]?.parents[0]?.probe?.state).toBe('serving')
  })

  it('is not serving where an older Route with an Exact match takes the request', async () => {
    const server = await serveShop()
    const cluster = new FakeCluster()
    cluster.world.gateways = [gateway(server.port)]
    const older = readyRoute()
    older.metadata = { ...older.metadata, name: 'older', creationTimestamp: '2026-01-01T00:00:00Z' }
    older.spec = {
      ...(older.spec as object),
      rules: [{ matches: [{ path: { type: 'Exact', value: '/cart' } }] }]
    }
    cluster.routes = [readyRoute(), older]
    const { report } = await gate({ timeout: '1s', 'verify-traffic': 'true' }, cluster)
    const parent = report.routes.find((r) => r.name === 'web')?.parents[0]
    expect(parent).toMatchObject({
      verdict: 'failed',
      probe: { state: 'not-serving', last: { status: 200 } }
    })
    expect(parent?.probe?.why).toMatch(
      /not from this Route: HTTPRoute shop\/older claims it with Exact path \/cart/
    )
    expect(report.verdict).toBe('failed')
  })

  it('keeps the status verdict of kinds it cannot probe, with a warning', async () => {
    const cluster = new FakeCluster()
    cluster.routes = [readyRoute('GRPCRoute')]
    const { report } = await gate(
      { routes: 'grpcroute/shop/web', timeout: '10s', 'verify-traffic': 'true' },
      cluster
    )
    expect(report.verdict).toBe('ready')
    expect(report.routes[0]?.parents[0]).toMatchObject({
      probe: { state: 'not-probed' },
      problems: [{ reason: 'NotProbed', severity: 'warning' }]
    })
    expectValidReport(report)
  })

  it('lets nothing from an answer reach the summary or the log unescaped', async () => {
    const server = await startServer(
      dataPlane('shop.example.com', (_req, res) => {
        res.writeHead(503, {
          'content-type': 'text/html',
          location: '<img src=x onerror=alert(1)>'
        })
        res.end('<script>alert(1)</script>\n::error::pwned @everyone')
      })
    )
    servers.push(server)
    const cluster = new FakeCluster()
    cluster.world.gateways = [gateway(server.port)]
    cluster.routes = [readyRoute()]
    for (const showBody of ['false', 'true']) {
      const { report } = await gate(
        { timeout: '1s', 'verify-traffic': 'true', 'traffic-show-body': showBody },
        cluster
      )
      const summary = renderSummary(report)
      // a header any reader may see is escaped; the body never reaches the summary
      expect(summary).toContain('location: &lt;img src=x onerror=alert(1)&gt;')
      expect(summary).not.toMatch(/<img|script|pwned|@everyone/)
      const text = renderText(report, { color: false })
      expect(text.split('\n').some((line) => /^\s*::/.test(line))).toBe(false)
      expect(text).not.toMatch(/script|pwned/)
      expect(report.routes[0]?.parents[0]?.probe?.last?.excerpt).toBe(
        showBody === 'true' ? '<script>alert(1)</script> ::error::pwned @everyone' : undefined
      )
    }
  })

  it('says in the report that TLS verification was skipped', async () => {
    const server = await serveShop()
    const cluster = new FakeCluster()
    cluster.world.gateways = [gateway(server.port)]
    cluster.routes = [readyRoute()]
    const { report } = await gate(
      { timeout: '10s', 'verify-traffic': 'true', 'traffic-skip-tls-verify': 'true' },
      cluster
    )
    expect(report.routes[0]?.parents[0]?.probe?.tlsVerified).toBe(false)
    expect(report.notes?.join('\n')).toMatch(/TLS certificates were not verified/)
  })
})
