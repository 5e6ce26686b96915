// `npm run bench`: route-gate against `kubectl wait` on the real test control plane (npm run
// cluster:up). Prints one table and writes every number to bench/results.json. `--smoke` runs each
// figure small (100 Routes) for the integration test; `--out FILE` writes the JSON elsewhere.
// `--offline [--trials N]` times only the commands that touch no cluster (bench/offline.ts).
// `--only latency [--trials N]` runs only the reaction and one-Route RSS figures and writes nothing,
// the loop for working on the reaction without the minutes the scale figures take.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { parseArgs, promisify } from 'node:util'
import {
  ENV_FILE_VARIABLE,
  envFilePath,
  readClusterEnv,
  REPO_ROOT,
  type ClusterEnv
} from '../test/cluster/env.ts'
import { AdminApi } from './api.ts'
import { warmKubectl, type BenchContext, type Tool } from './context.ts'
import { Fixture } from './fixture.ts'
import { benchOffline, measurePredictScale } from './offline.ts'
import { measureLatency } from './latency.ts'
import { measureTenantScale } from './tenant-scale.ts'
import { measureGateEvents } from './gate-events.ts'
import { measureHostileText } from './hostile-text.ts'
import { requireGnuTime } from './process.ts'
import { CountingProxy } from './proxy.ts'
import {
  checkBudgets,
  median,
  percentile,
  renderTable,
  type Machine,
  type Results
} from './report.ts'
import { measureScale, type ScaleResult } from './scale.ts'
import { measureSnapshot } from './snapshot.ts'
import { measureCommandStartup, measureStartup } from './startup.ts'

const NAMESPACES = 50
const PEER_ROUTES = 100

interface Plan {
  mode: Results['mode']
  sizes: number[]
  latencyTrials: number
  startupTrials: number
  /** runs of each offline command (--version, --help, the example snapshot) and kubectl version */
  commandTrials: number
  snapshotRuns: number
  out: string
}

function plan(argv: string[]): Plan {
  const { values } = parseArgs({
    args: argv,
    options: { smoke: { type: 'boolean' }, out: { type: 'string' } }
  })
  const out = path.resolve(values.out ?? path.join(REPO_ROOT, 'bench', 'results.json'))
  return values.smoke
    ? {
        mode: 'smoke',
        sizes: [100],
        latencyTrials: 3,
        startupTrials: 2,
        commandTrials: 1,
        snapshotRuns: 1,
        out
      }
    : {
        mode: 'full',
        sizes: [100, 1000, 5000],
        latencyTrials: 20,
        startupTrials: 5,
        commandTrials: 10,
        snapshotRuns: 3,
        out
      }
}

async function machine(api: AdminApi, kubectl: string): Promise<Omit<Machine, 'loadAfter'>> {
  const server = await api.json<{ gitVersion: string }>('GET', '/version')
  const { stdout } = await promisify(execFile)(kubectl, ['version', '--client', '-o', 'json'])
  const client = JSON.parse(stdout) as { clientVersion: { gitVersion: string } }
  return {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: os.cpus().length,
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    kernel: os.release(),
    node: process.versions.node,
    kubeApiserver: server.gitVersion,
    kubectl: client.clientVersion.gitVersion,
    loadBefore: os.loadavg()[0]!
  }
}

function prerequisites(): { env: ClusterEnv; kubectl: string } {
  requireGnuTime()
  const file = process.env[ENV_FILE_VARIABLE] ?? envFilePath()
  const env = readClusterEnv(file)
  if (!env) throw new Error(`no test cluster at ${file}: run npm run cluster:up first`)
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'cli.js'))) {
    throw new Error('dist/cli.js is missing: run npm run bundle first')
  }
  const kubectl = path.join(env.binDir, 'kubectl')
  if (!existsSync(kubectl)) {
    throw new Error(`${kubectl} is missing: run bash test/cluster/build-binaries.sh kubectl`)
  }
  return { env, kubectl }
}

interface Opened {
  ctx: BenchContext
  /** a scratch directory removed at the end */
  work: string
  /** the bench's namespaces, deleted at the end with everything in them */
  namespaces: string[]
}

/** The proxy, the fixture and the bench's namespaces around `body`, all removed after it. */
async function withBench<T>(
  env: ClusterEnv,
  kubectl: string,
  log: (line: string) => void,
  body: (opened: Opened) => Promise<T>
): Promise<T> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'route-gate-bench-'))
  const api = new AdminApi(env.kubeconfig)
  const proxy = await CountingProxy.start(api)
  const fixture = new Fixture(api, env)
  const ctx: BenchContext = {
    env,
    api,
    fixture,
    proxy,
    repo: REPO_ROOT,
    proxyKubeconfig: await proxy.writeKubeconfig(path.join(work, 'kubeconfig')),
    kubectl,
    kubectlCache: path.join(work, 'kubectl-cache'),
    home: path.join(work, 'home'),
    log
  }
  await mkdir(ctx.home)
  const opened: Opened = { ctx, work, namespaces: [] }
  try {
    await warmKubectl(ctx)
    opened.namespaces = await fixture.namespaces(NAMESPACES)
    log(`run ${fixture.runId}: ${NAMESPACES} namespaces bench-${fixture.runId}-*`)
    return await body(opened)
  } finally {
    await fixture.deleteRoutes(undefined, opened.namespaces).catch(() => {})
    await fixture.deleteNamespaces(opened.namespaces).catch(() => {})
    await proxy.close()
    api.close()
    await rm(work, { recursive: true, force: true })
  }
}

export async function bench(argv: string[], log: (line: string) => void): Promise<Results> {
  const p = plan(argv)
  const { env, kubectl } = prerequisites()
  const started = performance.now()
  const startedAt = new Date().toISOString()
  return withBench(env, kubectl, log, async ({ ctx, work, namespaces }) => {
    const { fixture } = ctx
    const before = await machine(ctx.api, kubectl)
    const [latencyRoute] = await fixture.createRoutes('latency', 1, namespaces)
    const commands = await measureCommandStartup(ctx, p.commandTrials)
    log('offline commands measured')
    const {
      latency,
      peakRssMb: latencyRssMb,
      floor: latencyFloor
    } = await measureLatency(ctx, latencyRoute!, p.latencyTrials)
    // the last trial left the Route ready, so each start-up run ends by itself
    const startup = await measureStartup(ctx, latencyRoute!, p.startupTrials)
    log('start-up measured')

    const scale: ScaleResult[] = []
    let snapshot: Results['snapshot'] | undefined
    for (const size of p.sizes) {
      const set = `s${size}`
      const routes = await fixture.createRoutes(set, size, namespaces)
      log(`scale ${size}: Routes created`)
      scale.push(await measureScale(ctx, 'route-gate', routes))
      log(`scale ${size}: route-gate ${Math.round(scale.at(-1)!.verdictMs)} ms`)
      if (size === PEER_ROUTES) {
        const peerRoutes = await fixture.createRoutes('peer', size, namespaces)
        scale.push(await measureScale(ctx, 'kubectl wait', peerRoutes))
        log(`scale ${size}: kubectl wait ${Math.round(scale.at(-1)!.verdictMs)} ms`)
        await fixture.deleteRoutes('peer', namespaces)
      }
      if (size === Math.max(...p.sizes)) {
        snapshot = await measureSnapshot(ctx, set, namespaces, work, p.snapshotRuns)
        log('snapshot measured')
      }
      await fixture.deleteRoutes(set, namespaces)
    }
    // offline, but in the same run as the rest, so that every figure shares the machine's state
    const predict = await measurePredictScale(work, log, Math.max(...p.sizes))
    // the 50,000-Route figures (issue 36): the full run only, as they take minutes
    const tenants = p.mode === 'full' ? await measureTenantScale(work, REPO_ROOT, log) : []
    const events = p.mode === 'full' ? [await measureGateEvents(REPO_ROOT, work, log)] : []
    const hostile = await measureHostileText(REPO_ROOT, work, log)
    const partial = {
      mode: p.mode,
      startedAt,
      durationS: (performance.now() - started) / 1000,
      machine: { ...before, loadAfter: os.loadavg()[0]! },
      latency,
      latencyRssMb,
      latencyFloor,
      startup,
      commands,
      scale,
      snapshot: snapshot!
    }
    const results: Results = {
      ...partial,
      budgets: [...checkBudgets(partial), predict, ...tenants, ...events, ...hostile]
    }
    await writeFile(p.out, JSON.stringify(results, null, 2) + '\n')
    return results
  })
}

/** `--only latency`: the reaction and one-Route RSS figures alone, as a table; nothing written. */
export async function benchLatency(argv: string[], log: (line: string) => void): Promise<string> {
  const { values } = parseArgs({
    args: argv,
    options: { only: { type: 'string' }, trials: { type: 'string', default: '20' } }
  })
  if (values.only !== 'latency')
    throw new Error('--only takes latency, the one figure it can run alone')
  const trials = Number(values.trials)
  if (!Number.isInteger(trials) || trials < 1) throw new Error('--trials takes a whole number')
  const { env, kubectl } = prerequisites()
  const loadBefore = os.loadavg()
  const result = await withBench(env, kubectl, log, async ({ ctx, namespaces }) => {
    const [route] = await ctx.fixture.createRoutes('latency', 1, namespaces)
    return measureLatency(ctx, route!, trials)
  })
  const loadAfter = os.loadavg()
  const cell = (tool: Tool): string =>
    `${Math.round(median(result.latency[tool]))} / ${Math.round(percentile(result.latency[tool], 90))} ms, ${Math.round(median(result.peakRssMb[tool]))} MB`
  const load = (l: number[]): string => l.map((v) => v.toFixed(2)).join(' ')
  return [
    `reaction median / p90, peak RSS median, ${trials} trials each`,
    `route-gate:   ${cell('route-gate')}`,
    `kubectl wait: ${cell('kubectl wait')}`,
    `bare Node watcher (bench/node-floor.mjs): ${Math.round(median(result.floor.latency))} / ${Math.round(percentile(result.floor.latency, 90))} ms, ${Math.round(median(result.floor.peakRssMb))} MB`,
    `load average ${load(loadBefore)} before, ${load(loadAfter)} after`
  ].join('\n')
}

if (import.meta.main) {
  const t0 = performance.now()
  const log = (line: string): void => {
    process.stderr.write(`[bench ${((performance.now() - t0) / 1000).toFixed(1)}s] ${line}\n`)
  }
  const argv = process.argv.slice(2)
  const table = argv.includes('--offline')
    ? benchOffline(argv, log)
    : argv.includes('--only')
      ? benchLatency(argv, log)
      : bench(argv, log).then(renderTable)
  table.then(
    (text) => process.stdout.write(`${text}\n`),
    (error: unknown) => {
      process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`)
      process.exitCode = 1
    }
  )
}
