// `npm run bench -- --offline`: only the commands that touch no cluster (--version, --help, a
// snapshot of examples/cluster-dump.yaml) against `kubectl version --client`, as ratios of medians,
// and the large-input budgets (predict and a snapshot of 5,000 Routes), with no test cluster. kubectl is the cluster's (its env file's bin/) or else the newest one
// test/cluster/build-binaries.sh left in its cache; KUBECTL names another.
import { existsSync, readdirSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { ENV_FILE_VARIABLE, envFilePath, readClusterEnv, REPO_ROOT } from '../test/cluster/env.ts'
import { requireGnuTime } from './process.ts'
import { offlineBudgets, renderBudgets } from './report.ts'
import { measureCommandStartup } from './startup.ts'
import { expectExit } from './context.ts'
import { launch } from './process.ts'
import { writePredictScale } from './predict-scale.ts'
import { measureSnapshotScale } from './snapshot-scale.ts'
import { measureTenantScale } from './tenant-scale.ts'
import { measureGateEvents } from './gate-events.ts'
import { measureHostileText } from './hostile-text.ts'
import { median, type Budget } from './report.ts'

const PREDICT_ROUTES = 5000
const PREDICT_RUNS = 3

/** `route-gate predict` on 5,000 Routes against a dump of as many existing ones, end to end. */
export async function measurePredictScale(
  home: string,
  log: (line: string) => void,
  routes = PREDICT_ROUTES
): Promise<Budget> {
  const { dump, manifests } = await writePredictScale(home, routes)
  const cli = path.join(REPO_ROOT, 'dist', 'cli.js')
  const args = [cli, 'predict', '--manifests', manifests, '--from-file', dump, '-o', 'json']
  const env = { PATH: process.env.PATH, HOME: home, XDG_CACHE_HOME: path.join(home, 'cache') }
  const runs = []
  for (let i = 0; i < PREDICT_RUNS + 1; i++) {
    const run = await expectExit(
      launch(process.execPath, args, { env, cwd: REPO_ROOT }).finished,
      0,
      'route-gate predict'
    )
    // the first run fills the compile cache
    if (i > 0) runs.push(run)
  }
  const wall = median(runs.map((r) => r.endedAt - r.startedAt))
  const rss = Math.max(...runs.map((r) => r.peakRssMb))
  log(`predict ${routes} Routes: ${Math.round(wall)} ms, ${Math.round(rss)} MB`)
  return {
    name: `predict, ${routes} Routes against ${routes} existing (wall time, median of ${PREDICT_RUNS}; peak RSS ${Math.round(rss)} MB)`,
    measured: `${Math.round(wall)} ms`,
    limit: '< 1000 ms',
    ok: wall < 1000
  }
}

function findKubectl(): string {
  if (process.env.KUBECTL) return process.env.KUBECTL
  const env = readClusterEnv(process.env[ENV_FILE_VARIABLE] ?? envFilePath())
  if (env && existsSync(path.join(env.binDir, 'kubectl'))) return path.join(env.binDir, 'kubectl')
  const cache = path.join(
    process.env.ROUTE_GATE_CACHE ??
      path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'route-gate')
  )
  const builds = existsSync(cache) ? readdirSync(cache).filter((d) => d.startsWith('k8s-')) : []
  const found = builds
    .sort()
    .reverse()
    .map((d) => path.join(cache, d, 'bin', 'kubectl'))
    .find((file) => existsSync(file))
  if (!found) {
    throw new Error(
      `no kubectl: set KUBECTL or run bash test/cluster/build-binaries.sh kubectl (looked in ${cache})`
    )
  }
  return found
}

export async function benchOffline(argv: string[], log: (line: string) => void): Promise<string> {
  const { values } = parseArgs({
    args: argv,
    options: { offline: { type: 'boolean' }, trials: { type: 'string', default: '15' } }
  })
  const trials = Number(values.trials)
  requireGnuTime()
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'cli.js'))) {
    throw new Error('dist/cli.js is missing: run npm run bundle first')
  }
  const kubectl = findKubectl()
  const home = await mkdtemp(path.join(os.tmpdir(), 'route-gate-bench-offline-'))
  try {
    const loadBefore = os.loadavg()[0]!
    log(`${trials} trials of each offline command and kubectl version --client (${kubectl})`)
    const commands = await measureCommandStartup({ repo: REPO_ROOT, home, kubectl }, trials)
    const scale = await measurePredictScale(home, log)
    const snapshot = await measureSnapshotScale(home, REPO_ROOT, log)
    const tenants = await measureTenantScale(home, REPO_ROOT, log)
    const events = await measureGateEvents(REPO_ROOT, home, log)
    const hostile = await measureHostileText(REPO_ROOT, home, log)
    const machine = `Machine: ${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.versions.node}; load average ${loadBefore.toFixed(2)} before, ${os.loadavg()[0]!.toFixed(2)} after.`
    return [
      renderBudgets([
        ...offlineBudgets(commands),
        scale,
        ...snapshot,
        ...tenants,
        events,
        ...hostile
      ]),
      '',
      machine
    ].join('\n')
  } finally {
    await rm(home, { recursive: true, force: true })
  }
}
