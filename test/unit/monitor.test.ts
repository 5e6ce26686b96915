// The monitor's orchestration against a fake cluster and on dumps: what it compares, what it logs
// during a watch window, and what fails the run.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { InputError } from '../../src/runtime/errors.ts'
import { parseSettings } from '../../src/inputs/parse.ts'
import {
  monitorExitCode,
  monitorFailureMessage,
  readPreviousState,
  runMonitor
} from '../../src/jobs/monitor.ts'
import type { RouteState } from '../../src/model/transitions.ts'
import type { Report, RouteObject, Transition, TransitionState } from '../../src/model/types.ts'
import { run } from '../../src/jobs/run.ts'
import { FakeCluster } from '../helpers/fake-cluster.ts'
import { expectValidReport } from '../helpers/schema.ts'
import { cond, entry, gwRef, healthy, route } from '../fixtures/model/build.ts'
import { monitorReport, route as result } from '../fixtures/monitor/reports.ts'

const settings = (values: Record<string, string>) =>
  parseSettings((name) => values[name], 'monitor')

const shop = (name: string, parents: Record<string, unknown>[]): RouteObject =>
  route({ namespace: 'shop', name, generation: 2, parentRefs: [gwRef('edge')], parents })
const ready = [entry(gwRef('edge'), healthy(2))]
const refused = [
  entry(gwRef('edge'), [
    cond('Accepted', 'False', 'NotAllowedByListeners', 2, 'no listener allows this Route'),
    cond('ResolvedRefs', 'True', 'ResolvedRefs', 2)
  ])
]
const stale = [entry(gwRef('edge'), healthy(1))]
const state = (name: string, verdict: RouteState['verdict']): RouteState => ({
  kind: 'HTTPRoute',
  namespace: 'shop',
  name,
  verdict
})

const tr = (name: string, from: TransitionState, to: TransitionState): Transition => ({
  kind: 'HTTPRoute',
  namespace: 'shop',
  name,
  from,
  to
})

function monitorWith(
  cluster: FakeCluster,
  values: Record<string, string>,
  previous?: RouteState[]
) {
  const lines: string[] = []
  const report = runMonitor(settings({ namespace: 'shop', ...values }), {
    cluster,
    log: (line) => lines.push(line),
    now: Date.now,
    previous
  })
  return { report, lines }
}

describe('runMonitor, one look', () => {
  it('compares with the previous state: degraded, recovered, new and deleted Routes', async () => {
    const cluster = new FakeCluster()
    cluster.routes = [shop('web', refused), shop('api', ready), shop('new', ready)]
    const { report } = monitorWith(cluster, {}, [
      state('web', 'ready'),
      state('api', 'failed'),
      state('gone', 'ready')
    ])
    const r = await report
    expectValidReport(r)
    expect(r.mode).toBe('monitor')
    expect(r.transitions).toEqual([
      tr('api', 'failed', 'ready'),
      tr('gone', 'ready', 'absent'),
      tr('new', 'absent', 'ready'),
      tr('web', 'ready', 'failed')
    ])
    const web = r.routes.find((x) => x.name === 'web')!
    expect(web.parents[0]!.problems[0]!.reason).toBe('NotAllowedByListeners')
    expect(monitorExitCode(r, 'degraded')).toBe(1)
    expect(monitorFailureMessage(r, 'degraded')).toBe('1 Route degraded: HTTPRoute shop/web')
    expect(cluster.scopes).toEqual([])
  })

  it('is the baseline on the first run: no transitions, a note, and degraded does not fail it', async () => {
    const cluster = new FakeCluster()
    cluster.routes = [shop('web', refused)]
    const r = await monitorWith(cluster, {}).report
    expect(r.transitions).toEqual([])
    expect(r.notes?.[0]).toMatch(/^No previous state: this run is the baseline/)
    expect(monitorExitCode(r, 'degraded')).toBe(0)
    expect(monitorExitCode(r, 'any')).toBe(1)
    expect(monitorExitCode(r, 'never')).toBe(0)
    expect(monitorFailureMessage(r, 'any')).toBe('1 of 1 Routes not ready')
  })

  it('reads the World of failing Routes only', async () => {
    const cluster = new FakeCluster()
    cluster.routes = [shop('web', refused), shop('api', ready)]
    await monitorWith(cluster, {}).report
    expect(cluster.worldReads).toEqual([[], ['shop']])
  })
})

describe('runMonitor with a watch window', () => {
  const tick = () => new Promise((r) => setTimeout(r, 30))

  it('logs a Route being deleted as a degradation, though its status still says accepted', async () => {
    const cluster = new FakeCluster()
    cluster.routes = [shop('web', ready)]
    const { report, lines } = monitorWith(cluster, { 'watch-duration': '300ms' })
    await tick()
    const leaving = shop('web', ready)
    leaving.metadata.deletionTimestamp = '2026-11-20T11:00:00Z'
    leaving.metadata.finalizers = ['example.com/cleanup']
    cluster.push('MODIFIED', leaving)
    expect(lines.find((l) => l.includes('DEGRADED'))).toMatch(
      /DEGRADED HTTPRoute shop\/web: ready → failed \(Terminating\)$/
    )
    const r = await report
    expect(r.transitions).toEqual([tr('web', 'ready', 'failed')])
    const problem = r.routes[0]!.problems![0]!
    expect(problem.reason).toBe('Terminating')
    expect(problem.evidence).toContain('Finalizers still hold it: example.com/cleanup.')
  })

  it('logs a degradation with its time as it happens and fails the run', async () => {
    const cluster = new FakeCluster()
    cluster.routes = [shop('web', ready), shop('api', ready)]
    const { report, lines } = monitorWith(cluster, { 'watch-duration': '400ms' })
    await tick()
    const before = Date.now()
    cluster.push('MODIFIED', shop('web', refused))
    const line = lines.find((l) => l.includes('DEGRADED'))!
    expect(line).toMatch(
      /^\d{4}-\d\d-\d\dT[\d:.]+Z DEGRADED HTTPRoute shop\/web: ready → failed \(Accepted=NotAllowedByListeners\)$/
    )
    expect(Date.parse(line.slice(0, 24))).toBeGreaterThanOrEqual(before - 5)
    const r = await report
    expectValidReport(r)
    expect(r.transitions).toEqual([tr('web', 'ready', 'failed')])
    expect(monitorExitCode(r, 'degraded')).toBe(1)
    expect(cluster.scopes[0]).toMatchObject({
      kinds: ['HTTPRoute', 'GRPCRoute'],
      namespaces: ['shop']
    })
  })

  it('forgives a pending blip that settles, but remembers a failure that healed', async () => {
    const cluster = new FakeCluster()
    cluster.routes = [shop('web', ready), shop('api', ready)]
    const { report, lines } = monitorWith(cluster, { 'watch-duration': '400ms' })
    await tick()
    cluster.push('MODIFIED', shop('web', stale))
    cluster.push('MODIFIED', shop('web', ready))
    cluster.push('MODIFIED', shop('api', refused))
    cluster.push('MODIFIED', shop('api', ready))
    const r = await report
    expect(
      lines.some((l) => /HTTPRoute shop\/web: pending \(.*StaleStatus.*\); waiting/.test(l))
    ).toBe(true)
    expect(r.transitions).toEqual([tr('api', 'ready', 'failed'), tr('api', 'failed', 'ready')])
    expect(r.verdict).toBe('ready')
    expect(monitorExitCode(r, 'degraded')).toBe(1)
  })

  it('reports deleted and new Routes, and a relist that drops a Route', async () => {
    const cluster = new FakeCluster()
    cluster.routes = [shop('web', ready), shop('api', ready)]
    const { report, lines } = monitorWith(cluster, { 'watch-duration': '300ms' })
    await tick()
    cluster.push('DELETED', shop('web', ready))
    cluster.push('ADDED', shop('new', refused))
    cluster.handlers!.onList('HTTPRoute', null, [shop('new', refused)])
    const r = await report
    expect(r.transitions).toEqual([
      tr('web', 'ready', 'absent'),
      tr('new', 'absent', 'failed'),
      tr('api', 'ready', 'absent')
    ])
    expect(lines.filter((l) => / deleted HTTPRoute/.test(l))).toHaveLength(2)
    expect(monitorExitCode(r, 'degraded')).toBe(0)
  })
})

describe('offline monitor and state files', () => {
  const dump = 'examples/cluster-dump.yaml'

  async function tempDir(): Promise<string> {
    return mkdtemp(path.join(os.tmpdir(), 'route-gate-monitor-'))
  }

  it('compares a dump with a former report and writes a state the next run reads', async () => {
    const dir = await tempDir()
    const first = await run(
      settings({ 'from-file': dump, 'all-namespaces': 'true', 'state-out': `${dir}/state.json` }),
      {
        connect: () => Promise.reject(new Error('no cluster')),
        log: () => {},
        cwd: process.cwd(),
        now: Date.now
      }
    )
    expectValidReport(first)
    expect(first.transitions).toEqual([])
    const stored = JSON.parse(await readFile(`${dir}/state.json`, 'utf8')) as {
      routes: RouteState[]
    }
    expect(stored.routes).toHaveLength(first.counts.routes)

    // pretend every Route was ready last time
    const previous = { ...first, routes: first.routes.map((r) => ({ ...r, verdict: 'ready' })) }
    await writeFile(`${dir}/previous.json`, JSON.stringify(previous))
    const second = await run(
      settings({ 'from-file': dump, 'all-namespaces': 'true', previous: `${dir}/previous.json` }),
      {
        connect: () => Promise.reject(new Error('no cluster')),
        log: () => {},
        cwd: process.cwd(),
        now: Date.now
      }
    )
    expectValidReport(second)
    const notReady = first.counts.failed + first.counts.pending
    expect(second.transitions).toHaveLength(notReady)
    expect(second.transitions!.every((t) => t.from === 'ready' && t.to !== 'ready')).toBe(true)
    expect(monitorExitCode(second as Report, 'degraded')).toBe(1)
  })

  it('refuses a previous file that is missing, not JSON, or not a report', async () => {
    const dir = await tempDir()
    await writeFile(`${dir}/bad.json`, '{')
    await writeFile(`${dir}/other.json`, '{"items": []}')
    await expect(readPreviousState('nope.json', dir)).rejects.toThrow(
      new InputError('Invalid previous "nope.json": no such file')
    )
    await expect(readPreviousState('bad.json', dir)).rejects.toThrow(/not JSON/)
    await expect(readPreviousState('other.json', dir)).rejects.toThrow(
      /not a route-gate report or state file/
    )
  })

  it('reads a report as the previous state', async () => {
    const dir = await tempDir()
    await writeFile(`${dir}/r.json`, JSON.stringify(monitorReport([result('web', 'failed')])))
    expect(await readPreviousState('r.json', dir)).toEqual([state('web', 'failed')])
  })
})

describe('monitor inputs', () => {
  const error = (values: Record<string, string>, command: 'gate' | 'monitor' = 'monitor') => {
    try {
      parseSettings((name) => values[name], command)
    } catch (e) {
      return (e as Error).message
    }
    return 'no error'
  }

  it('parses fail-on, watch-duration, cluster-name and mode', () => {
    const s = parseSettings(
      (name) => ({ mode: 'monitor', 'fail-on': 'any', 'watch-duration': '10m' })[name]
    )
    expect(s).toMatchObject({
      command: 'monitor',
      failOn: 'any',
      watchDurationMs: 600_000,
      clusterName: 'default',
      comment: false
    })
    expect(settings({}).failOn).toBe('degraded')
  })

  it('gives precise errors', () => {
    expect(error({ 'fail-on': 'sometimes' })).toBe(
      'Invalid fail-on "sometimes": use one of degraded, any, never'
    )
    expect(error({ 'watch-duration': '10 minutes' })).toBe(
      'Invalid watch-duration "10 minutes": use a duration like 90s, 5m or 1h'
    )
    expect(error({ 'cluster-name': 'prod eu' })).toMatch(/^Invalid cluster-name "prod eu"/)
    expect(() => parseSettings((name) => ({ mode: 'watch' })[name])).toThrow(
      new InputError('Invalid mode "watch": use one of gate, check, apply, monitor, predict')
    )
    expect(error({ manifests: 'deploy/', routes: 'httproute/web' })).toMatch(
      /^Invalid inputs: manifests, routes belong to the gate/
    )
    expect(error({ 'from-file': 'd.yaml', 'watch-duration': '1m' })).toMatch(
      /watch-duration watches a cluster/
    )
    expect(error({ routes: 'httproute/web', 'watch-duration': '1m' }, 'gate')).toMatch(
      /^Invalid inputs: watch-duration belongs to monitor mode/
    )
  })
})
