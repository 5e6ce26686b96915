// The gate's orchestration against a fake cluster: when it stops waiting and what it then reports.
// The same scenarios run against the real control plane in test/integration/gate-action.test.ts.
import { mkdtemp, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ClusterError, InputError } from '../../src/runtime/errors.ts'
import { runGate } from '../../src/jobs/gate/gate.ts'
import { parseSettings } from '../../src/inputs/parse.ts'
import type { RouteScope, RouteWatchHandlers } from '../../src/cluster/types.ts'
import type { RouteObject } from '../../src/model/types.ts'
import { FakeCluster } from '../helpers/fake-cluster.ts'
import { expectValidReport } from '../helpers/schema.ts'
import { cond, entry, gwRef, healthy, route } from '../fixtures/model/build.ts'

const settings = (values: Record<string, string>) => parseSettings((name) => values[name], 'gate')

function gateWith(cluster: FakeCluster, values: Record<string, string>) {
  const lines: string[] = []
  const run = runGate(settings(values), {
    cluster,
    log: (line) => lines.push(line),
    cwd: process.cwd(),
    now: Date.now
  })
  return { run, lines }
}

const web = (parents?: Record<string, unknown>[], generation = 2): RouteObject =>
  route({ namespace: 'shop', name: 'web', generation, parentRefs: [gwRef('edge')], parents })

const ready = (generation = 2) => [entry(gwRef('edge'), healthy(generation))]
const backendMissing = [
  entry(gwRef('edge'), [
    cond('Accepted', 'True', 'Accepted', 2),
    cond('ResolvedRefs', 'False', 'BackendNotFound', 2, 'service "api" not found')
  ])
]

const tick = () => new Promise((r) => setTimeout(r, 20))

describe('runGate', () => {
  it('ends as soon as every parent is ready, without waiting for the deadline', async () => {
    const cluster = new FakeCluster()
    cluster.routes = [web(ready())]
    const started = Date.now()
    const { run, lines } = gateWith(cluster, { routes: 'httproute/shop/web', timeout: '30s' })
    const report = await run
    expect(Date.now() - started).toBeLessThan(15_000)
    expect(report.verdict).toBe('ready')
    expect(report.timedOut).toBe(false)
    expectValidReport(report)
    expect(lines.at(-1)).toMatch(/^Verdict: ready: 1 of 1 Routes ready/)
    // ready at the first read: how long it had been ready is not known, so no time to ready
    expect(report.routes[0]?.readyAt).toBeUndefined()
    expect(cluster.scopes[0]).toMatchObject({ kinds: ['HTTPRoute'], namespaces: ['shop'] })
    // nothing to diagnose: no second read of the cluster between the verdict and the exit
    expect(cluster.worldReads).toEqual([[]])
  })

  it('says so in the report when the owner could not be read while waiting', async () => {
    const cluster = new FakeCluster()
    cluster.world.unreadable = ['gateways in all namespaces: forbidden (list)']
    cluster.routes = [web(ready())]
    const report = await gateWith(cluster, { routes: 'httproute/shop/web', timeout: '5s' }).run
    expect(report.notes?.join('\n')).toMatch(
      /Owner filtering was off while waiting \(could not read gateways in all namespaces: forbidden \(list\)\)/
    )
  })

  it('keeps waiting through a failure that heals, then reports ready', async () => {
    const cluster = new FakeCluster()
    cluster.routes = [web(backendMissing)]
    const { run, lines } = gateWith(cluster, { routes: 'httproute/shop/web', timeout: '30s' })
    await tick()
    const healedAt = Date.now()
    cluster.push('MODIFIED', web(ready()))
    const report = await run
    expect(report.verdict).toBe('ready')
    expect(lines.some((l) => /failed \(BackendNotFound\) → ready after/.test(l))).toBe(true)
    // the time the gate saw it become ready: after the status healed, before the run ended
    const readyAt = Date.parse(report.routes[0]?.readyAt ?? '')
    expect(readyAt).toBeGreaterThanOrEqual(healedAt)
    expect(readyAt).toBeLessThanOrEqual(Date.parse(report.finishedAt ?? ''))
    expectValidReport(report)
  })

  it('fails at the deadline with the reason a parent was still pending', async () => {
    const cluster = new FakeCluster()
    cluster.routes = [web([entry(gwRef('edge'), healthy(1))])]
    const started = Date.now()
    const report = await gateWith(cluster, { routes: 'httproute/shop/web', timeout: '300ms' }).run
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
    expect(report).toMatchObject({ verdict: 'failed', timedOut: true })
    const problems = report.routes[0]?.parents[0]?.problems ?? []
    expect(problems.map((p) => [p.reason, p.severity])).toContainEqual(['StaleStatus', 'error'])
    expectValidReport(report)
  })

  it('never reports the old generation as current after a spec change', async () => {
    const cluster = new FakeCluster()
    cluster.routes = [web(ready(1), 1)]
    const { run } = gateWith(cluster, { routes: 'httproute/shop/web', timeout: '1s' })
    // before the gate has looked, the spec changes: generation 2 under status of generation 1
    cluster.routes = [web(ready(1), 2)]
    const report = await run
    expect(report.verdict).toBe('failed')
    expect(report.routes[0]?.generation).toBe(2)
  })

  it('fail-fast ends at the first definite failure', async () => {
    const cluster = new FakeCluster()
    cluster.routes = [web(backendMissing)]
    const started = Date.now()
    const report = await gateWith(cluster, {
      routes: 'httproute/shop/web',
      timeout: '30s',
      'fail-fast': 'true'
    }).run
    expect(Date.now() - started).toBeLessThan(15_000)
    expect(report).toMatchObject({ verdict: 'failed', timedOut: false })
    expect(report.routes[0]?.parents[0]?.problems[0]?.reason).toBe('BackendNotFound')
  })

  it('fail-fast does not stop at a BackendNotFound the cluster contradicts, and stops once it is confirmed', async () => {
    const withBackend = (parents: Record<string, unknown>[]): RouteObject => {
      const r = web(parents)
      return {
        ...r,
        spec: { ...(r.spec as object), rules: [{ backendRefs: [{ name: 'api', port: 8080 }] }] }
      }
    }
    const cluster = new FakeCluster()
    cluster.world.services = [
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'api', namespace: 'shop' },
        spec: { ports: [{ port: 8080 }] }
      }
    ]
    cluster.routes = [withBackend(backendMissing)]
    const { run, lines } = gateWith(cluster, {
      routes: 'httproute/shop/web',
      timeout: '30s',
      'fail-fast': 'true'
    })
    await tick()
    expect(cluster.worldReads).toContainEqual(['shop'])
    expect(
      lines.some((l) => /contradicted by the cluster .* fail-fast keeps waiting/.test(l))
    ).toBe(true)
    cluster.push('MODIFIED', withBackend(ready()))
    const report = await run
    expect(report.verdict).toBe('ready')

    // the same status once the Service is gone: confirmed, so fail-fast ends the run
    const gone = new FakeCluster()
    gone.routes = [withBackend(backendMissing)]
    const started = Date.now()
    const failed = await gateWith(gone, {
      routes: 'httproute/shop/web',
      timeout: '30s',
      'fail-fast': 'true'
    }).run
    expect(Date.now() - started).toBeLessThan(15_000)
    expect(failed).toMatchObject({ verdict: 'failed', timedOut: false })
  })

  it('reads the Routes of every namespace to name the one a RuleMatchConflict is with', async () => {
    const spec = {
      parentRefs: [gwRef('edge', { namespace: 'infra' })],
      hostnames: ['shop.example.com'],
      rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }] }]
    }
    const loser = web([
      entry(gwRef('edge', { namespace: 'infra' }), [
        cond('Accepted', 'False', 'RuleMatchConflict', 2),
        cond('ResolvedRefs', 'True', 'ResolvedRefs', 2)
      ])
    ])
    const holder = route({
      namespace: 'team',
      name: 'older',
      generation: 1,
      parentRefs: [gwRef('edge', { namespace: 'infra' })],
      parents: ready(1)
    })
    const cluster = new FakeCluster()
    cluster.routes = [
      { ...loser, spec },
      { ...holder, spec }
    ]
    const report = await gateWith(cluster, { routes: 'httproute/shop/web', timeout: '200ms' }).run
    expect(report.routes[0]?.parents[0]?.problems[0]?.title).toBe(
      'HTTPRoute team/older already holds hostname shop.example.com and match "path PathPrefix /" on Gateway infra/edge'
    )
  })

  it('a named Route that never appears fails at the deadline as RouteNotFound', async () => {
    const cluster = new FakeCluster()
    const report = await gateWith(cluster, { routes: 'httproute/shop/nope', timeout: '200ms' }).run
    expect(report.verdict).toBe('failed')
    expect(report.routes[0]).toMatchObject({ name: 'nope', verdict: 'failed' })
    expect(report.routes[0]?.problems?.[0]?.reason).toBe('RouteNotFound')
    expectValidReport(report)
  })

  it('a Route deleted while waiting is waited for again, not forgotten', async () => {
    const cluster = new FakeCluster()
    cluster.routes = [web(backendMissing)]
    const { run, lines } = gateWith(cluster, { routes: 'httproute/shop/web', timeout: '400ms' })
    await tick()
    cluster.push('DELETED', web(backendMissing))
    const report = await run
    expect(lines).toContain('HTTPRoute shop/web: deleted while waiting')
    expect(report.routes[0]?.problems?.[0]?.reason).toBe('RouteNotFound')
  })

  it('a selector that matches nothing by the deadline is an input error, never a pass', async () => {
    const cluster = new FakeCluster()
    const gate = gateWith(cluster, { selector: 'app=shop', namespace: 'shop', timeout: '200ms' })
    await expect(gate.run).rejects.toThrow(InputError)
    await expect(gate.run).rejects.toThrow(
      /No HTTPRoute\/GRPCRoute found in namespace shop, selector app=shop before the deadline/
    )
  })

  it('gates every Route the selector finds, and all must be ready', async () => {
    const cluster = new FakeCluster()
    const other = route({ namespace: 'shop', name: 'api', parentRefs: [gwRef('edge')] })
    cluster.routes = [web(ready()), other]
    const report = await gateWith(cluster, {
      selector: 'app=shop',
      namespace: 'shop',
      timeout: '300ms'
    }).run
    expect(report.counts).toMatchObject({ routes: 2, ready: 1, failed: 1 })
    expect(cluster.scopes[0]).toMatchObject({ labelSelector: 'app=shop', namespaces: ['shop'] })
  })

  it('a list that has not answered by the deadline is a cluster error, never "does not exist"', async () => {
    // the API server is slow, not failing: no retry is reported, the list simply never returns
    class SilentList extends FakeCluster {
      override watchRoutes(_scope: RouteScope, handlers: RouteWatchHandlers, signal: AbortSignal) {
        this.handlers = handlers
        return new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()))
      }
    }
    const cluster = new SilentList()
    cluster.routes = [web(ready())]
    const gate = gateWith(cluster, { routes: 'httproute/shop/web', timeout: '200ms' })
    await expect(gate.run).rejects.toThrow(ClusterError)
    await expect(gate.run).rejects.toThrow(
      /fake:6443.*HTTPRoutes in namespace shop not listed before the deadline/
    )
  })

  it('waits for every kind to be listed before calling a selector scope ready', async () => {
    const cluster = new FakeCluster()
    const api = route({
      kind: 'GRPCRoute',
      namespace: 'shop',
      name: 'api',
      parentRefs: [gwRef('edge')],
      parents: backendMissing
    })
    // the HTTPRoutes are listed first and are all ready; the failing GRPCRoute comes in the next list
    cluster.routes = [web(ready()), api]
    const report = await gateWith(cluster, {
      selector: 'app=shop',
      namespace: 'shop',
      timeout: '300ms'
    }).run
    expect(report.verdict).toBe('failed')
    expect(report.counts).toMatchObject({ routes: 2, ready: 1, failed: 1 })
  })

  it('refuses a selector next to manifests that hold Routes, before applying anything', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-gate-'))
    await writeFile(
      path.join(dir, 'route.yaml'),
      'apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: web}\nspec: {}\n'
    )
    const cluster = new FakeCluster()
    const run = runGate(settings({ manifests: 'route.yaml', selector: 'app=web' }), {
      cluster,
      log: () => {},
      cwd: dir,
      now: Date.now
    })
    await expect(run).rejects.toThrow(/manifests hold Routes, which are gated by name/)
    expect(cluster.applied).toEqual([])
  })

  it('a cluster fault still going on at the deadline is a cluster error (exit 3), not a verdict', async () => {
    const cluster = new FakeCluster()
    cluster.routes = [web(backendMissing)]
    const gate = gateWith(cluster, { routes: 'httproute/shop/web', timeout: '300ms' })
    await tick()
    cluster.handlers?.onRetry('503 Service Unavailable from https://fake:6443')
    await expect(gate.run).rejects.toThrow(ClusterError)
    await expect(gate.run).rejects.toThrow(
      /503 Service Unavailable .*still failing at the deadline/
    )
  })

  it('a fault that recovers before the deadline does not change the verdict', async () => {
    const cluster = new FakeCluster()
    cluster.routes = [web(backendMissing)]
    const gate = gateWith(cluster, { routes: 'httproute/shop/web', timeout: '2s' })
    await tick()
    cluster.handlers?.onRetry('connection reset')
    cluster.handlers?.onRecovered?.()
    cluster.push('MODIFIED', web(ready()))
    const report = await gate.run
    expect(report.verdict).toBe('ready')
    expect(gate.lines).toContain('cluster: connection reset; retrying')
    expect(gate.lines).toContain('cluster: connection restored')
  })

  it('a permanent watch error ends the run with that error', async () => {
    const cluster = new FakeCluster()
    cluster.watchError = new ClusterError('forbidden: cannot watch httproutes in namespace shop')
    await expect(gateWith(cluster, { routes: 'httproute/shop/web' }).run).rejects.toThrow(
      /cannot watch httproutes/
    )
  })

  it('refuses to gate a kind the server does not serve', async () => {
    const cluster = new FakeCluster()
    await expect(gateWith(cluster, { routes: 'udproute/shop/dns' }).run).rejects.toThrow(
      /does not serve UDPRoute: install the Gateway API CRDs/
    )
  })

  it('reads diagnosis evidence only around Routes that are not ready', async () => {
    const cluster = new FakeCluster()
    cluster.routes = [
      route({
        namespace: 'shop',
        name: 'web',
        parentRefs: [gwRef('edge', { namespace: 'infra' })],
        parents: backendMissing
      })
    ]
    await gateWith(cluster, { routes: 'httproute/shop/web', timeout: '200ms' }).run
    expect(cluster.worldReads).toEqual([[], ['infra', 'shop']])
  })
})
