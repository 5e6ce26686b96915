// A soak against the live control plane: 200 gate runs in-process on the real cluster client and 10
// through the committed CLI bundle, while a helper flips each Route's status at random between
// failed, stale (Accepted=True one generation back) and missing, and then writes its final state
// (any of the four). Every verdict is checked against the state in effect when the gate decided (its
// deadline, or the moment it said ready), as the API server's acknowledgements place each write:
// ready only when a ready state was in effect; otherwise failed at the deadline with the reason that
// state implies. On a loaded machine a write can land after the deadline, and then the state before
// it is the right answer. Zero wrong verdicts allowed.
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
/**
 * Each gate's timeout. The flips end within half a second on an idle machine; on a loaded one the
 * gate's first reads alone can take seconds, and a gate whose API server has not answered by its
 * deadline gives no verdict (exit 3), so a shorter one would leave little to check.
 */
const TIMEOUT_MS = 4000

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

/** One status write: sent, then acknowledged by the API server with the Route's new resourceVersion. */
interface Write {
  state: RouteState
  sentAt: number
  ackAt: number
  resourceVersion: number
}

async function write(lane: Lane, state: RouteState, writes: Write[]): Promise<void> {
  const sentAt = Date.now()
  const acked = await writeState(lane.ns, lane.name, state, lane.generation)
  writes.push({
    state,
    sentAt,
    ackAt: Date.now(),
    resourceVersion: Number(acked.metadata.resourceVersion)
  })
}

/** Non-ready flips while the gate is running, then the final state. */
async function flip(lane: Lane, writes: Write[]): Promise<void> {
  const flips = 1 + Math.floor(lane.rand() * 3)
  for (let i = 0; i < flips; i++) {
    await sleep(lane.rand() * 80)
    await write(lane, lane.pick(NOT_READY), writes)
  }
  await sleep(lane.rand() * 80)
  await write(lane, lane.pick(ROUTE_STATES), writes)
}

/**
 * How long a write acknowledged to the writer may take to reach the gate's watch (the API server
 * answers the writer and feeds its watchers separately): a state superseded this shortly before the
 * gate decided may still be the one it saw. Verdicts that need it are counted and printed.
 */
const WATCH_DELIVERY_MS = 500

interface Judged {
  /** the state in effect when the gate decided, by the acknowledgements */
  inEffect: RouteState
  /** every state the gate may rightly have seen then: also a write in flight, or just superseded */
  possible: Set<RouteState>
  /** the final write was acknowledged after the gate decided (the machine was slow, not the gate) */
  finalLate: boolean
}

/**
 * Write i was possibly in effect at some moment of [at - WATCH_DELIVERY_MS, at] when it was sent by
 * `at` and its successor (if any) was not acknowledged before that window opened.
 */
function judgeWrites(writes: Write[], at: number): Judged {
  const ordered = [...writes].sort((a, b) => a.resourceVersion - b.resourceVersion)
  const acked = ordered.filter((w) => w.ackAt <= at)
  const possible = new Set<RouteState>()
  ordered.forEach((w, i) => {
    const next = ordered[i + 1]
    if (w.sentAt <= at && (next === undefined || next.ackAt > at - WATCH_DELIVERY_MS)) {
      possible.add(w.state)
    }
  })
  return {
    inEffect: acked.at(-1)?.state ?? ordered[0]!.state,
    possible,
    finalLate: ordered.at(-1)!.ackAt > at
  }
}

/** The cluster error (exit 3) of a gate whose API server had not answered by the deadline. */
const CLUSTER_SILENT = /still failing at the deadline|not listed before the deadline/

/** What is wrong with a verdict for a run whose writes were `writes`, or undefined when it is right. */
function wrongVerdict(
  writes: Write[],
  timeoutMs: number,
  report: Report | undefined,
  error?: Error
): { problem?: string; judged?: Judged; state?: RouteState; silent?: string } {
  if (error) {
    // an API server too slow to answer by the deadline is a cluster error (exit 3): no verdict to judge
    const silent = error.name === 'ClusterError' ? CLUSTER_SILENT.exec(error.message) : null
    return silent ? { silent: silent[0] } : { problem: `error ${error.name}: ${error.message}` }
  }
  if (report === undefined) return { problem: 'no report' }
  const ordered = writes.map((w) => w.resourceVersion)
  // a write that changes nothing keeps the resourceVersion
  if (ordered.some((rv, i) => i > 0 && rv < ordered[i - 1]!)) {
    return { problem: `writes acknowledged out of order: ${ordered.join(',')}` }
  }
  // the gate decides at its deadline, or as soon as it sees everything ready
  const decidedAt = report.timedOut
    ? Date.parse(report.startedAt!) + timeoutMs
    : Date.parse(report.finishedAt!)
  const judged = judgeWrites(writes, decidedAt)
  const [route] = report.routes
  const reasons = [
    ...(route?.problems ?? []),
    ...(route?.parents.flatMap((p) => p.problems) ?? [])
  ].map((problem) => problem.reason)
  const explains = (state: RouteState): boolean =>
    state === 'ready'
      ? report.verdict === 'ready' && !report.timedOut
      : report.verdict === 'failed' &&
        report.timedOut === true &&
        reasons.includes(EXPECTED_REASON[state])
  const state = explains(judged.inEffect) ? judged.inEffect : [...judged.possible].find(explains)
  if (state !== undefined) return { judged, state }
  const history = writes.map((w) => `${w.state}@${w.sentAt}-${w.ackAt}#${w.resourceVersion}`)
  return {
    judged,
    problem:
      `verdict ${report.verdict} (${reasons.join(',') || 'no problems'}, timedOut ${report.timedOut}) ` +
      `decided at ${decidedAt}; in effect ${judged.inEffect}, possible ${[...judged.possible].join('/')}; ` +
      `writes ${history.join(' ')}`
  }
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
    // how each verdict was judged: against the state in effect when the gate decided, or (counted
    // apart) a write in flight then or superseded within WATCH_DELIVERY_MS
    const judgements = {
      inEffect: 0,
      inFlightOrJustSuperseded: 0,
      lateFinalWrite: 0,
      clusterSilent: 0
    }
    const silentBy = new Map<string, number>()
    const countSilent = (why: string): void => {
      judgements.clusterSilent++
      silentBy.set(why, (silentBy.get(why) ?? 0) + 1)
    }
    const tally = (judged: Judged | undefined, state: RouteState | undefined, verdict: string) => {
      count(`${state ?? judged?.inEffect ?? '?'}→${verdict}`)
      if (judged === undefined || state === undefined) return
      if (judged.finalLate) judgements.lateFinalWrite++
      if (state === judged.inEffect) judgements.inEffect++
      else judgements.inFlightOrJustSuperseded++
    }

    const inProcessLane = async (index: number): Promise<void> => {
      const lane = await makeLane(ns, `lane-${index}`, seed + index)
      for (let run = 0; run < RUNS_PER_LANE; run++) {
        const writes: Write[] = []
        await write(lane, lane.pick(NOT_READY), writes)
        // the default cluster tuning, as users run it: the test-sized request timeout (2.5 s) turns
        // a slow API server into a cluster error rather than a verdict
        const running = gateInProcess(
          { routes: `httproute/${ns}/${lane.name}`, timeout: `${TIMEOUT_MS}ms` },
          kubeconfig,
          {}
        )
        await flip(lane, writes)
        const result = await running
        const { problem, judged, state, silent } = wrongVerdict(
          writes,
          TIMEOUT_MS,
          result.report,
          result.error
        )
        if (silent) countSilent(silent)
        else tally(judged, state, result.report?.verdict ?? 'error')
        if (problem) wrong.push(`lane ${index} run ${run}: ${problem}`)
      }
    }

    const cliLane = async (): Promise<void> => {
      const lane = await makeLane(ns, 'cli', seed + LANES)
      for (let run = 0; run < CLI_RUNS; run++) {
        const writes: Write[] = []
        await write(lane, lane.pick(NOT_READY), writes)
        const running = runCli(
          [
            'check',
            '--routes',
            `httproute/${ns}/cli`,
            '--timeout',
            `${TIMEOUT_MS}ms`,
            '--format',
            'json'
          ],
          { env: { KUBECONFIG: clusterEnv().kubeconfig } }
        )
        await flip(lane, writes)
        const result = await running
        const silent = result.code === 3 ? CLUSTER_SILENT.exec(result.stderr) : null
        if (silent) {
          countSilent(`cli ${silent[0]}`)
          continue
        }
        const report = result.stdout ? (JSON.parse(result.stdout) as Report) : undefined
        const judgedRun = wrongVerdict(writes, TIMEOUT_MS, report)
        const problem =
          judgedRun.problem ??
          (result.code === (report?.verdict === 'ready' ? 0 : 1)
            ? undefined
            : `exit ${result.code}`)
        tally(judgedRun.judged, judgedRun.state, `cli ${report?.verdict ?? 'error'}`)
        if (problem) wrong.push(`cli run ${run}: ${problem}; ${result.stderr}`)
      }
    }

    await Promise.all([
      ...Array.from({ length: LANES }, (_, index) => inProcessLane(index)),
      cliLane()
    ])
    const total = [...verdicts.values()].reduce((sum, n) => sum + n, 0)
    console.log(
      `soak seed ${seed}: ${JSON.stringify(Object.fromEntries(verdicts))}; judged ${JSON.stringify(judgements)}; ` +
        `no verdict ${JSON.stringify(Object.fromEntries(silentBy))}`
    )
    expect(total + judgements.clusterSilent).toBe(LANES * RUNS_PER_LANE + CLI_RUNS)
    expect(wrong, `seed ${seed}`).toEqual([])
    // every final state came up, so each kind of verdict was really checked
    for (const state of ROUTE_STATES) {
      expect([...verdicts.keys()].some((key) => key.startsWith(`${state}→`))).toBe(true)
    }
  }, 420_000)
})
