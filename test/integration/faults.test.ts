// The gate against the real control plane through a fault-injecting proxy (test/helpers/fault-proxy.ts):
// resets, 429 with Retry-After, 500/503, slow answers, a watch cut in the middle, a silent watch,
// 410 Gone on resume after etcd compaction, and the kube-apiserver killed and restarted during a wait.
// Each scenario holds the invariants: never a false ready (ready only once the ready status was
// written, at the Route's current generation); the run ends within timeout + 5 s; every fault is
// logged once, not per attempt; a transient fault does not fail the gate unless it outlasts the
// deadline, and then the exit code is 3 with the host and the error named.
import { readFileSync, writeFileSync } from 'node:fs'
import { mkdtemp, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bindable, isRunning, startDetached, waitHealthy } from '../cluster/processes.ts'
import { envFilePath, ENV_FILE_VARIABLE } from '../cluster/env.ts'
import { runAction, runCli } from '../helpers/action.ts'
import { clusterEnv, testNamespace } from '../helpers/cluster.ts'
import { startFaultProxy, type FaultAction, type FaultProxy } from '../helpers/fault-proxy.ts'
import {
  createOtherRoute,
  gateInProcess,
  writeState,
  type InProcessRun
} from '../helpers/route-states.ts'

let proxy: FaultProxy

beforeAll(async () => {
  proxy = await startFaultProxy(clusterEnv())
})
afterAll(async () => {
  await proxy.close()
})

const collection = (ns: string): string =>
  `/apis/gateway.networking.k8s.io/v1/namespaces/${ns}/httproutes`

/** The first `count` list (or watch) requests for the namespace's HTTPRoutes get `action`. */
function firstOf(
  ns: string,
  watch: boolean,
  count: number,
  action: FaultAction | ((n: number) => FaultAction)
): void {
  let seen = 0
  proxy.setRule((request) => {
    if (request.path !== collection(ns) || request.watch !== watch) return undefined
    seen++
    if (seen > count) return undefined
    return typeof action === 'function' ? action(seen) : action
  })
}

const retryLines = (run: InProcessRun): string[] => run.log.filter((l) => /retrying/.test(l))

interface Scenario {
  ns: string
  generation: number
  run: InProcessRun
  readyWrittenAt: number
}

/** Resolves once `condition` holds (polled); the test's own timeout bounds the wait. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(20)
}

/**
 * A Route with stale status (Accepted=True one generation back: ready-looking, not ready), the
 * gate started with `timeout`, the ready status written after `readyAfterMs`, and not before
 * `readyWhen` holds (the fault it must land in has happened).
 */
async function scenario(
  prefix: string,
  arm: (ns: string) => void,
  options: {
    readyAfterMs: number
    readyWhen?: () => boolean
    timeout?: string
    onStarted?: () => Promise<void>
  }
): Promise<Scenario> {
  const ns = await testNamespace(prefix)
  const generation = await createOtherRoute(ns, 'web')
  await writeState(ns, 'web', 'stale', generation)
  proxy.clear()
  arm(ns)
  const running = gateInProcess(
    { routes: `httproute/${ns}/web`, timeout: options.timeout ?? '40s' },
    proxy.kubeconfig
  )
  await options.onStarted?.()
  await sleep(options.readyAfterMs)
  if (options.readyWhen) await until(options.readyWhen)
  const readyWrittenAt = Date.now()
  await writeState(ns, 'web', 'ready', generation)
  const run = await running
  proxy.setRule(undefined)
  return { ns, generation, run, readyWrittenAt }
}

/** Never a false ready, within the time limit: the invariants every healed fault must hold. */
function expectHonestReady(s: Scenario, timeoutMs = 40_000): void {
  expect(s.run.error, s.run.log.join('\n')).toBeUndefined()
  expect(s.run.report?.verdict).toBe('ready')
  expect(s.run.endedAt).toBeGreaterThanOrEqual(s.readyWrittenAt)
  const [route] = s.run.report?.routes ?? []
  expect(route?.generation).toBe(s.generation)
  for (const condition of route?.parents[0]?.conditions ?? []) {
    expect(condition.observedGeneration).toBe(s.generation)
  }
  expect(s.run.endedAt - s.run.startedAt).toBeLessThan(timeoutMs + 5000)
}

describe('transient faults heal without failing the gate', () => {
  it('connection resets on the list are retried and logged once', async () => {
    const s = await scenario('fault-reset', (ns) => firstOf(ns, false, 3, { kind: 'reset' }), {
      readyAfterMs: 1500
    })
    expectHonestReady(s)
    const resets = proxy.exchanges.filter((e) => e.action === 'reset')
    expect(resets).toHaveLength(3)
    expect(retryLines(s.run)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^cluster: list httproutes in namespace ${s.ns} on https://127\\.0\\.0\\.1:\\d+ .*(reset|closed|network).*; retrying`
        )
      )
    ])
    expect(s.run.log).toContain('cluster: connection restored')
  })

  it('429 with Retry-After is honoured, then the list succeeds', async () => {
    const s = await scenario(
      'fault-429',
      (ns) =>
        firstOf(ns, false, 2, {
          kind: 'status',
          status: 429,
          retryAfterSeconds: 1,
          message: 'too many requests, slow down'
        }),
      { readyAfterMs: 2500 }
    )
    expectHonestReady(s)
    const lists = proxy.exchanges.filter((e) => e.path === collection(s.ns) && !e.watch)
    expect(lists.map((e) => e.status)).toEqual([429, 429, 200])
    // the backoff alone is at most 500 ms here; the server asked for a second
    expect(lists[1]!.at - lists[0]!.at).toBeGreaterThanOrEqual(450)
    expect(retryLines(s.run)).toHaveLength(1)
    expect(retryLines(s.run)[0]).toMatch(/HTTP 429: too many requests, slow down; retrying/)
  })

  it('500 and 503 on the watch are retried; the watch resumes without a relist', async () => {
    const s = await scenario(
      'fault-5xx',
      (ns) =>
        firstOf(ns, true, 3, (n) => ({
          kind: 'status',
          status: n === 1 ? 500 : 503,
          message: `injected ${n === 1 ? 500 : 503}`
        })),
      { readyAfterMs: 2000 }
    )
    expectHonestReady(s)
    const watches = proxy.exchanges.filter((e) => e.path === collection(s.ns) && e.watch)
    expect(watches.slice(0, 3).map((e) => e.status)).toEqual([500, 503, 503])
    expect(watches[3]?.query.get('resourceVersion')).toBe(watches[0]?.query.get('resourceVersion'))
    expect(proxy.exchanges.filter((e) => e.path === collection(s.ns) && !e.watch)).toHaveLength(1)
    expect(retryLines(s.run)).toHaveLength(1)
    expect(retryLines(s.run)[0]).toMatch(
      // the server's own Status message, as for a list (client-node's Watch gave only statusText)
      /watch httproutes .*HTTP 500: injected 500; retrying$/
    )
  })

  it('a slow answer within the request timeout is waited for; a slower one is retried once', async () => {
    const slow = await scenario(
      'fault-slow',
      (ns) => firstOf(ns, false, 1, { kind: 'delay', ms: 1500 }),
      { readyAfterMs: 2500 }
    )
    expectHonestReady(slow)
    expect(retryLines(slow.run)).toEqual([])

    const slower = await scenario(
      'fault-slower',
      (ns) => firstOf(ns, false, 2, { kind: 'delay', ms: 4000 }),
      { readyAfterMs: 3000 }
    )
    expectHonestReady(slower)
    expect(retryLines(slower.run)).toHaveLength(1)
    expect(retryLines(slower.run)[0]).toMatch(/list httproutes .*no answer in time; retrying$/)
  })

  it('a watch stream cut in the middle resumes from its resourceVersion', async () => {
    const s = await scenario(
      'fault-cut',
      (ns) => firstOf(ns, true, 3, { kind: 'cut', afterMs: 300 }),
      { readyAfterMs: 2500 }
    )
    expectHonestReady(s)
    const watches = proxy.exchanges.filter((e) => e.path === collection(s.ns) && e.watch)
    expect(watches.filter((e) => e.action === 'cut')).toHaveLength(3)
    expect(watches.length).toBeGreaterThan(3)
    for (const watch of watches) expect(watch.query.get('resourceVersion')).toMatch(/^\d+$/)
    expect(proxy.exchanges.filter((e) => e.path === collection(s.ns) && !e.watch)).toHaveLength(1)
    expect(retryLines(s.run)).toHaveLength(1)
  })

  it('a watch that goes silent is abandoned after twice its timeout and reopened', async () => {
    const watchesOf = (ns: string) =>
      proxy.exchanges.filter((e) => e.path === collection(ns) && e.watch)
    let ns = ''
    const s = await scenario(
      'fault-silent',
      (namespace) => {
        ns = namespace
        firstOf(namespace, true, 1, { kind: 'silence' })
      },
      // the ready status is written into the silent watch, once the gate has opened it
      { readyAfterMs: 0, readyWhen: () => watchesOf(ns).some((e) => e.action === 'silence') }
    )
    expectHonestReady(s)
    // it is seen only through the watch opened after the silent one was abandoned
    const [silent, reopened] = watchesOf(s.ns)
    expect(silent?.action).toBe('silence')
    expect(reopened?.action).toBe('pass')
    expect(s.run.endedAt).toBeGreaterThanOrEqual(reopened!.at)
    expect(retryLines(s.run)).toEqual([
      expect.stringMatching(/watch httproutes .*no event or bookmark for 2 s; retrying$/)
    ])
  })
})

describe('faults that outlast the deadline', () => {
  it('a watch failing until the deadline ends in a ClusterError, not a verdict', async () => {
    const ns = await testNamespace('fault-lasting')
    const generation = await createOtherRoute(ns, 'web')
    await writeState(ns, 'web', 'stale', generation)
    proxy.setRule((request) =>
      request.path === collection(ns) && request.watch
        ? { kind: 'status', status: 503, message: 'etcd leader changed' }
        : undefined
    )
    const run = await gateInProcess(
      { routes: `httproute/${ns}/web`, timeout: '4s' },
      proxy.kubeconfig
    )
    proxy.setRule(undefined)
    expect(run.endedAt - run.startedAt).toBeLessThan(4000 + 5000)
    expect(run.report).toBeUndefined()
    expect(run.error?.name).toBe('ClusterError')
    expect(run.error?.message).toBe(
      `watch httproutes in namespace ${ns} on ${proxy.url} (context test): HTTP 503: etcd leader changed (still failing at the deadline)`
    )
    expect(retryLines(run)).toHaveLength(1)
  })

  it('CLI: a list failing past the deadline exits 3 within timeout + 5 s, naming host and error', async () => {
    const ns = await testNamespace('fault-cli')
    const generation = await createOtherRoute(ns, 'web')
    await writeState(ns, 'web', 'ready', generation)
    const kubeconfig = await kubeconfigFile(proxy.kubeconfig)
    proxy.setRule((request) =>
      request.path === collection(ns) && !request.watch
        ? {
            kind: 'status',
            status: 503,
            message: 'the server is currently unable to handle the request'
          }
        : undefined
    )
    const result = await runCli(['check', '--routes', `httproute/${ns}/web`, '--timeout', '5s'], {
      env: { KUBECONFIG: kubeconfig }
    })
    proxy.setRule(undefined)
    expect(result.code, result.stderr).toBe(3)
    expect(result.elapsedMs).toBeLessThan(5000 + 5000)
    const errorLine = result.stderr.split('\n').filter((l) => l.startsWith('route-gate:'))
    expect(errorLine).toEqual([
      expect.stringMatching(
        new RegExp(
          `^route-gate: list httproutes in namespace ${ns} on ${escapeRe(proxy.url)} \\(context test\\): HTTP 503: the server is currently unable to handle the request \\(still failing at the deadline\\)$`
        )
      )
    ])
    // retried many times, logged once
    expect(
      proxy.exchanges.filter((e) => e.path === collection(ns) && !e.watch).length
    ).toBeGreaterThan(2)
    expect(result.stderr.match(/retrying\n/g)).toHaveLength(1)
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })

  it('Action: discovery answering 503 past the deadline exits 3 within timeout + 5 s', async () => {
    proxy.setRule(() => ({ kind: 'status', status: 503, message: 'apiserver is shutting down' }))
    const result = await runAction(
      { routes: 'httproute/default/web', timeout: '4s', kubeconfig: proxy.kubeconfig },
      {}
    )
    proxy.setRule(undefined)
    expect(result.code).toBe(3)
    expect(result.elapsedMs).toBeLessThan(4000 + 5000)
    expect(result.outputs.verdict).toBe('error')
    expect(result.stdout).toContain(
      `::error::route-gate: ${proxy.url} (context test): HTTP 503: apiserver is shutting down (GET /apis/gateway.networking.k8s.io) (still failing at the deadline)`
    )
  })
})

describe('410 Gone and a restarted kube-apiserver', () => {
  it('the apiserver is killed during a wait, etcd compacts the watched revision; 410, relist, honest ready', async () => {
    const env = clusterEnv()
    const s = await scenario('fault-restart', () => proxy.setRule(undefined), {
      readyAfterMs: 0,
      timeout: '90s',
      onStarted: async () => {
        // let the gate list and open its watch
        await waitFor(() => proxy.exchanges.some((e) => e.watch && e.status === 200), 10_000)
        await restartApiserver(env, async () => {
          // while it is down: move etcd past the watched revision and compact it away
          const revision = await etcdPut(env, 'route-gate-test/bump', String(Date.now()))
          await etcdCompact(env, revision)
        })
      }
    })
    expectHonestReady(s, 90_000)
    const lists = proxy.exchanges.filter((e) => e.path === collection(s.ns) && !e.watch)
    const gone = proxy.exchanges.filter(
      (e) => e.path === collection(s.ns) && e.watch && (e.status === 410 || e.goneEvent)
    )
    expect(gone.length).toBeGreaterThanOrEqual(1)
    expect(lists.length).toBe(2)
    // one fault, one log line, however many attempts the downtime took
    expect(retryLines(s.run)).toHaveLength(1)
    expect(s.run.log).toContain('cluster: connection restored')
  })
})

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

async function kubeconfigFile(text: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-faults-'))
  const file = path.join(dir, 'kubeconfig')
  await writeFile(file, text, { mode: 0o600 })
  return file
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await sleep(50)
  }
}

function etcdUrl(env: ReturnType<typeof clusterEnv>): string {
  return env.health.etcd.replace(/\/health$/, '')
}

async function etcdPut(
  env: ReturnType<typeof clusterEnv>,
  key: string,
  value: string
): Promise<string> {
  const response = await fetch(`${etcdUrl(env)}/v3/kv/put`, {
    method: 'POST',
    body: JSON.stringify({
      key: Buffer.from(key).toString('base64'),
      value: Buffer.from(value).toString('base64')
    })
  })
  const body = (await response.json()) as { header: { revision: string } }
  return body.header.revision
}

async function etcdCompact(env: ReturnType<typeof clusterEnv>, revision: string): Promise<void> {
  const response = await fetch(`${etcdUrl(env)}/v3/kv/compaction`, {
    method: 'POST',
    body: JSON.stringify({ revision, physical: true })
  })
  expect(response.status).toBe(200)
}

/**
 * SIGKILLs the shared kube-apiserver, runs `whileDown`, and starts it again with the very same command
 * line, port, certificates and log; env.json gets the new pid so later runs still find it healthy.
 */
async function restartApiserver(
  env: ReturnType<typeof clusterEnv>,
  whileDown: () => Promise<void>
): Promise<void> {
  const pid = env.pids.apiserver
  const [binary, ...args] = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    .replace(/\0$/, '')
    .split('\0')
  if (binary === undefined || !isRunning(pid, binary))
    throw new Error(`apiserver ${pid} not running`)
  process.kill(pid, 'SIGKILL')
  while (isRunning(pid, binary)) await sleep(50)
  // the killed leader turns zombie before its other threads let go of the listening socket
  const port = Number(
    /^--secure-port=(\d+)$/.exec(args.find((a) => a.startsWith('--secure-port=')) ?? '')?.[1]
  )
  for (let waited = 0; !(await bindable(port)); waited += 50) {
    if (waited > 30_000) throw new Error(`port ${port} still taken 30 s after the kill`)
    await sleep(50)
  }
  await whileDown()
  const started = startDetached(binary, args, env.logs.apiserver)
  const envFile = process.env[ENV_FILE_VARIABLE] ?? envFilePath()
  const recorded = JSON.parse(readFileSync(envFile, 'utf8')) as typeof env
  recorded.pids.apiserver = started
  writeFileSync(envFile, `${JSON.stringify(recorded, null, 2)}\n`)
  const ca = readFileSync(path.join(env.dataDir, 'pki', 'ca.crt'), 'utf8')
  await waitHealthy(
    'kube-apiserver',
    { url: env.health.apiserver, ca },
    { pid: started, binary, log: env.logs.apiserver },
    120_000
  )
}
