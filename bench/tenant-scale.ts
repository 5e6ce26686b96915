// The cluster of issue 36 (one Gateway, 50 namespaces, a Service per healthy Route, every tenth Route
// failing) at 5,000 and 50,000 Routes: check --from-file end to end, and predict of as many new
// Routes against as many existing ones. Goals: < 7 s and < 1 GB at 50,000, growth ≤ ×12.
import path from 'node:path'
import { writeClusterScale } from '../test/fixtures/cluster-scale.ts'
import { expectExit } from './context.ts'
import { writePredictScale } from './predict-scale.ts'
import { launch, type Finished } from './process.ts'
import { median, type Budget } from './report.ts'

const SIZES = [5000, 50_000] as const
const RUNS = 3
const WALL_LIMIT_MS = 7000
const RSS_LIMIT_MB = 1024
const GROWTH_LIMIT = 12

interface Timed {
  wallMs: number
  peakRssMb: number
}

/** `RUNS` runs after one that fills the compile cache: the median wall time and the largest peak. */
async function timed(repo: string, home: string, args: string[], exit: number): Promise<Timed> {
  const runs: Finished[] = []
  const env = { PATH: process.env.PATH, HOME: home, XDG_CACHE_HOME: path.join(home, 'cache') }
  for (let i = 0; i <= RUNS; i++) {
    const started = launch(process.execPath, [path.join(repo, 'dist', 'cli.js'), ...args], {
      env,
      cwd: repo
    })
    const run = await expectExit(started.finished, exit, `route-gate ${args[0]}`)
    if (i > 0) runs.push(run)
  }
  return {
    wallMs: median(runs.map((r) => r.endedAt - r.startedAt)),
    peakRssMb: Math.max(...runs.map((r) => r.peakRssMb))
  }
}

const count = (value: number): string => value.toLocaleString('en-US')

function budgets(what: string, result: Timed): Budget[] {
  return [
    {
      name: `${what}: wall time (median of ${RUNS})`,
      measured: `${Math.round(result.wallMs)} ms`,
      limit: `< ${WALL_LIMIT_MS} ms`,
      ok: result.wallMs < WALL_LIMIT_MS
    },
    {
      name: `${what}: peak RSS`,
      measured: `${Math.round(result.peakRssMb)} MB`,
      limit: `< ${RSS_LIMIT_MB} MB`,
      ok: result.peakRssMb < RSS_LIMIT_MB
    }
  ]
}

export async function measureTenantScale(
  home: string,
  repo: string,
  log: (line: string) => void
): Promise<Budget[]> {
  const snapshots: Timed[] = []
  for (const size of SIZES) {
    const dump = await writeClusterScale(home, size)
    const result = await timed(repo, home, ['check', '--from-file', dump, '-o', 'json'], 1)
    log(
      `tenant snapshot ${count(size)} Routes: ${Math.round(result.wallMs)} ms, ${Math.round(result.peakRssMb)} MB`
    )
    snapshots.push(result)
  }
  const [small, large] = [snapshots[0]!, snapshots[1]!]
  const growth = large.wallMs / small.wallMs
  const { dump, manifests } = await writePredictScale(home, SIZES[1])
  const predicted = await timed(
    repo,
    home,
    ['predict', '--manifests', manifests, '--from-file', dump, '-o', 'json'],
    0
  )
  log(
    `predict ${count(SIZES[1])} Routes: ${Math.round(predicted.wallMs)} ms, ${Math.round(predicted.peakRssMb)} MB`
  )
  return [
    ...budgets(`snapshot of ${count(SIZES[1])} Routes, 5,000 failing (check --from-file)`, large),
    {
      name: `snapshot growth, ${count(SIZES[0])} → ${count(SIZES[1])} Routes (${Math.round(small.wallMs)} → ${Math.round(large.wallMs)} ms)`,
      measured: `${growth.toFixed(1)}×`,
      limit: `≤ ${GROWTH_LIMIT}×`,
      ok: growth <= GROWTH_LIMIT
    },
    ...budgets(`predict, ${count(SIZES[1])} Routes against ${count(SIZES[1])} existing`, predicted)
  ]
}
