// fail-fast: the two ways the wait may end before the deadline on a failure, each only when the
// cluster confirms it: a failure its Services, ReferenceGrants and Namespaces do not contradict, and
// a parent Gateway that does not exist once a short grace for apply order has passed.
import type { ClusterClient } from '../../cluster/types.ts'
import { definitelyFailed, missingGatewayParents } from '../../diagnose/contradictions.ts'
import { namespacesToRead } from '../../model/route-spec.ts'
import { routeId, routeKey, routeRef } from '../../model/route-id.ts'
import type { RouteVerdict, World } from '../../model/types.ts'
import type { VerdictTally, WaitCollector } from './collector.ts'
import type { GateRun } from './gate-run.ts'

/**
 * fail-fast waits this long, from the moment the gate first sees a Route, before that Route's
 * parentRef to a Gateway that does not exist counts as a failure: manifests applied in one go land
 * within a second or two, and a Gateway applied by another step of the same deployment a little
 * later must not fail a Route that only arrived first (or arrived late in the wait).
 */
export const MISSING_PARENT_GRACE_MS = 10_000
const MISSING_PARENT_POLL_MS = 5_000

/**
 * A failure confirmed by the cluster: the Services, ReferenceGrants and Namespaces around the failed
 * Routes are read, and a reason they contradict (BackendNotFound while the Service exists) is a
 * controller that has not caught up, so the wait goes on. One read at a time; events that arrive
 * during it are judged by one more read after it.
 */
export class ConfirmedFailure {
  private reading = false
  private again = false
  private readonly told = new Set<string>()

  constructor(
    private readonly cluster: ClusterClient,
    private readonly verdicts: VerdictTally,
    private readonly log: (line: string) => void
  ) {}

  check(stop: () => void): void {
    if (this.reading) {
      this.again = true
      return
    }
    this.reading = true
    void this.confirm(stop).finally(() => (this.reading = false))
  }

  private async confirm(stop: () => void): Promise<void> {
    do {
      this.again = false
      const failed = [...this.verdicts.byKey.values()].filter((v) => v.verdict === 'failed')
      if (failed.length === 0) return
      let evidence: World
      try {
        evidence = await this.cluster.readWorld(namespacesToRead(failed.map((v) => v.route)))
      } catch (error) {
        // unconfirmed is not definite: keep waiting; the deadline still ends the run
        this.log(
          `fail-fast: could not read the evidence (${error instanceof Error ? error.message : String(error)}); waiting`
        )
        return
      }
      const current = [...this.verdicts.byKey.values()].filter((v) => v.verdict === 'failed')
      if (current.some((v) => definitelyFailed(v, evidence))) {
        stop()
        return
      }
      this.tellContradicted(current)
    } while (this.again)
  }

  private tellContradicted(current: RouteVerdict[]): void {
    for (const v of current) {
      const key = `${routeKey(routeRef(v.route))}@${v.route.metadata.resourceVersion ?? ''}`
      if (this.told.has(key)) continue
      this.told.add(key)
      this.log(
        `${routeId(routeRef(v.route))}: the controller's failure is contradicted by the cluster (it has not caught up); fail-fast keeps waiting`
      )
    }
  }
}

/**
 * Looks, every few seconds once the grace is over, for pending Routes whose parent Gateway the
 * gate's own read finds absent; `stop` ends the wait naming them. `end` stops looking.
 */
export function watchForMissingParents(
  run: GateRun,
  collector: WaitCollector,
  stop: () => void
): { end: () => void } {
  let looking = true
  let timer: NodeJS.Timeout | undefined
  const look = (): void => {
    void missingParents(run.cluster, collector.seenFor(MISSING_PARENT_GRACE_MS)).then((missing) => {
      if (!looking) return
      if (missing.length === 0) {
        timer = setTimeout(look, MISSING_PARENT_POLL_MS)
        return
      }
      run.log(`fail-fast: ${missing.join(', ')} does not exist`)
      stop()
    })
  }
  timer = setTimeout(look, MISSING_PARENT_GRACE_MS)
  return {
    end: () => {
      looking = false
      clearTimeout(timer)
    }
  }
}

/** "Gateway infra/edge (parent of HTTPRoute shop/web)" for each parent of `judged` pending Routes the read proves missing. */
async function missingParents(cluster: ClusterClient, judged: RouteVerdict[]): Promise<string[]> {
  const waiting = judged.filter((v) => v.verdict === 'pending')
  if (waiting.length === 0) return []
  const namespaces = new Set(waiting.flatMap((v) => v.parents.map((p) => p.parentRef.namespace)))
  // a read that fails proves nothing: look again later
  const world = await cluster.readWorld([...namespaces]).catch(() => undefined)
  if (world === undefined) return []
  return waiting.flatMap((v) =>
    missingGatewayParents(v, world).map(
      (ref) => `Gateway ${ref.namespace}/${ref.name} (parent of ${routeId(routeRef(v.route))})`
    )
  )
}
