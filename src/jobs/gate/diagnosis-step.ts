// The gate's judging and diagnosing steps, after the wait: every Route's verdict (the one the wait
// reached when all are ready; otherwise judged again, final at the deadline, on a fresh read of the
// cluster) and the explanation of each that is not ready.
import type { ClusterClient } from '../../cluster/types.ts'
import { reportsConflict } from '../../diagnose/conflicts.ts'
import { explainRoute } from '../../diagnose/explain.ts'
import { explainMissingRoute } from '../../diagnose/missing.ts'
import { proveLive } from '../prove-live.ts'
import { namespacesToRead } from '../../model/route-spec.ts'
import { routeKey, routeRef, parseRouteKey } from '../../model/route-id.ts'
import type {
  RouteObject,
  RouteResult,
  RouteVerdict,
  VerdictOptions,
  World
} from '../../model/types.ts'
import type { WaitCollector } from './collector.ts'
import { beforeDeadline, type GateRun } from './gate-run.ts'
import type { GateTargets } from './targets.ts'

// The reads that explain a verdict reached at the deadline get a little time of their own.
const DIAGNOSIS_GRACE_MS = 4000

export interface Diagnosed {
  results: RouteResult[]
  notes: string[]
  /** the cluster as the diagnosis read it (the wait's read when all were ready) */
  world: World
}

export async function judgeAndDiagnose(
  run: GateRun,
  targets: GateTargets,
  collector: WaitCollector,
  wait: { world: World; allReady: boolean; final: boolean; options: VerdictOptions }
): Promise<Diagnosed> {
  const notes = new Set<string>()
  const { world, known, peersUnread } = wait.allReady
    ? { world: wait.world, known: [...collector.routes.values()], peersUnread: false }
    : await readForDiagnosis(run, collector)
  if (peersUnread)
    notes.add(
      'Could not list Routes in all namespaces: the Routes a conflict is with (RuleMatchConflict) cannot be named.'
    )
  const options = { ...wait.options, final: wait.final }
  const writers = wait.final
    ? await beforeDeadline(
        run,
        collector.carry.writers([...collector.routes.values()]),
        Math.max(run.deadline, run.now()) + DIAGNOSIS_GRACE_MS
      ).catch(() => undefined)
    : undefined
  const now = new Date(run.now())
  const keys = targets.byName ? targets.names.map(routeKey) : [...collector.routes.keys()]
  const results: RouteResult[] = []
  for (const key of new Set(keys)) {
    const route = collector.routes.get(key)
    if (!route) {
      results.push(explainMissingRoute(parseRouteKey(key), options.final))
      continue
    }
    // Everything ready: the verdicts the wait reached stand; reading again would only delay
    const verdict =
      (wait.allReady ? collector.verdicts.byKey.get(key) : undefined) ??
      collector.evaluate(route, world, options, writers)
    verdict.notes.forEach((n) => notes.add(n))
    results.push(
      explainRoute(verdict, world, { source: targets.sources.get(key), now, routes: known })
    )
  }
  const proven = await proveLive(results, run.cluster, options.conditions, (work) =>
    beforeDeadline(run, work, Math.max(run.deadline, run.now()) + DIAGNOSIS_GRACE_MS)
  )
  return { results: proven, notes: [...notes], world }
}

/** The cluster around the Routes that are not ready, and the Routes they may conflict with. */
async function readForDiagnosis(
  run: GateRun,
  collector: WaitCollector
): Promise<{ world: World; known: RouteObject[]; peersUnread: boolean }> {
  const notReady = [...collector.verdicts.byKey.values()].filter((v) => v.verdict !== 'ready')
  const graceEnd = Math.max(run.deadline, run.now()) + DIAGNOSIS_GRACE_MS
  const peers = conflictPeers(run.cluster, notReady)
  const world = await beforeDeadline(
    run,
    run.cluster.readWorld(namespacesToRead(notReady.map((v) => v.route))),
    graceEnd
  )
  const others = await beforeDeadline(run, peers, graceEnd).catch(() => undefined)
  const byKey = new Map(
    [...collector.routes.values(), ...(others ?? [])].map((r) => [routeKey(routeRef(r)), r])
  )
  return { world, known: [...byKey.values()], peersUnread: others === undefined }
}

/**
 * Every Route of the kinds whose parents report a conflict with another Route (RuleMatchConflict),
 * so the report can name the Route that holds the hostname and match; undefined when they cannot
 * be read.
 */
async function conflictPeers(
  cluster: ClusterClient,
  verdicts: RouteVerdict[]
): Promise<RouteObject[] | undefined> {
  const kinds = [...new Set(verdicts.filter(reportsConflict).map((v) => v.route.kind))]
  if (kinds.length === 0) return []
  try {
    return await cluster.listRoutes({ kinds, namespaces: 'all' })
  } catch {
    return undefined
  }
}
