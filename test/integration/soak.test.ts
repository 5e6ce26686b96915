// A soak against the live control plane: 200 gate runs in-process on the real cluster client and 10
// through the committed CLI bundle, while a helper flips each Route's status at random between
// failed, stale (Accepted=True one generation back) and missing, and then writes its final state
// (any of the four). Every verdict is checked against the final state: ready exactly when the final
// state is ready; otherwise failed at the deadline with the reason that state implies. Zero wrong
// verdicts allowed.
import { readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import type { Report } from '../../src/model/types.ts'
import { runCli } from '../helpers/action.ts'
import { clusterEnv, testNamespace } from '../helpers/cluster.ts'
import {
  createOtherRoute,
  EXPECTED_REASON,
  gateInProcess,
  ROUTE_STATES,
  writeState,
  type RouteState
} from '../helpers/route-states.ts'

const LANES = 8
const RUNS_PER_LANE = 25
const CLI_RUNS = 10
const NOT_READY: RouteState[] = ['failed', 'stale', 'missing']

/** mulberry32: a seeded generator, so a failing sequence can be replayed from the seed it prints. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Lane {
  ns: string
  name: string
  generation: number
  pick: <T>(items: T[]) => T
  rand: () => number
}

/** Non-ready flips while the gate is running, then the final state; resolves with the final. */
async function flip(lane: Lane): Promise<RouteState> {
  const flips = 1 + Math.floor(lane.rand() * 3)
  for (let i = 0; i < flips; i++) {
    await sleep(lane.rand() * 80)
    await writeState(lane.ns, lane.name, lane.pick(NOT_READY), lane.generation)
  }
  await sleep(lane.rand() * 80)
  const final = lane.pick(ROUTE_STATES)
  await writeState(lane.ns, lane.name, final, lane.generation)
  return final
}

/** What is wrong with a verdict for `final`, or undefined when it is right. */
function wrongVerdict(
  final: RouteState,
  report: Report | undefined,
  error?: Error
): string | undefined {
  if (error) return `error ${error.name}: ${error.message}`
  if (report === undefined) return 'no report'
  const [route] = report.routes
  if (final === 'ready') {
    return report.verdict === 'ready' && !report.timedOut ? undefined : `verdict ${report.verdict}`
  }
  if (report.verdict !== 'failed') return `verdict ${report.verdict}`
  if (!report.timedOut) return 'ended before the deadline'
  const reasons = route?.parents.flatMap((p) => p.problems.map((problem) => problem.reason)) ?? []
  return reasons.includes(EXPECTED_REASON[final])
    ? undefined
    : `reasons ${reasons.join(',')} instead of ${EXPECTED_REASON[final]}`
}

async function makeLane(ns: string, name: string, seed: number): Promise<Lane> {
  const rand = random(seed)
  return {
    ns,
    name,
    generation: await createOtherRoute(ns, name),
    rand,
    pick: (items) => items[Math.floor(rand() * items.length)]!
  }
}

describe('soak: verdicts while statuses flip at random', () => {
  it(`${LANES * RUNS_PER_LANE} in-process and ${CLI_RUNS} CLI runs, zero wrong verdicts`, async () => {
    const seed = Number(process.env.ROUTE_GATE_SOAK_SEED ?? Date.now() % 1_000_000)
    const ns = await testNamespace('soak')
    const kubeconfig = readFileSync(clusterEnv().kubeconfig, 'utf8')
    const wrong: string[] = []
    const verdicts = new Map<string, number>()
    const count = (key: string): void => void verdicts.set(key, (verdicts.get(key) ?? 0) + 1)

    const inProcessLane = async (index: number): Promise<void> => {
      const lane = await makeLane(ns, `lane-${index}`, seed + index)
      for (let run = 0; run < RUNS_PER_LANE; run++) {
        await writeState(ns, lane.name, lane.pick(NOT_READY), lane.generation)
        const running = gateInProcess(
          { routes: `httproute/${ns}/${lane.name}`, timeout: '2s' },
          kubeconfig
        )
        const final = await flip(lane)
        const result = await running
        const problem = wrongVerdict(final, result.report, result.error)
        count(`${final}→${result.report?.verdict ?? 'error'}`)
        if (problem) wrong.push(`lane ${index} run ${run} (final ${final}): ${problem}`)
        if (result.endedAt - result.startedAt > 2000 + 5000) {
          wrong.push(`lane ${index} run ${run}: took ${result.endedAt - result.startedAt} ms`)
        }
      }
    }

    const cliLane = async (): Promise<void> => {
      const lane = await makeLane(ns, 'cli', seed + LANES)
      for (let run = 0; run < CLI_RUNS; run++) {
        await writeState(ns, lane.name, lane.pick(NOT_READY), lane.generation)
        const running = runCli(
          ['check', '--routes', `httproute/${ns}/cli`, '--timeout', '4s', '--format', 'json'],
          { env: { KUBECONFIG: clusterEnv().kubeconfig } }
        )
        const final = await flip(lane)
        const result = await running
        const report = result.stdout ? (JSON.parse(result.stdout) as Report) : undefined
        const problem =
          wrongVerdict(final, report) ??
          (result.code === (final === 'ready' ? 0 : 1) ? undefined : `exit ${result.code}`)
        count(`cli ${final}→${report?.verdict ?? 'error'}`)
        if (problem) wrong.push(`cli run ${run} (final ${final}): ${problem}; ${result.stderr}`)
      }
    }

    await Promise.all([
      ...Array.from({ length: LANES }, (_, index) => inProcessLane(index)),
      cliLane()
    ])
    const total = [...verdicts.values()].reduce((sum, n) => sum + n, 0)
    console.log(`soak seed ${seed}: ${JSON.stringify(Object.fromEntries(verdicts))}`)
    expect(total).toBe(LANES * RUNS_PER_LANE + CLI_RUNS)
    expect(wrong, `seed ${seed}`).toEqual([])
    // every final state came up, so each kind of verdict was really checked
    for (const state of ROUTE_STATES) {
      expect([...verdicts.keys()].some((key) => key.startsWith(`${state}→`))).toBe(true)
    }
  }, 420_000)
})
