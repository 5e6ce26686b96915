// The wait's collector: every list and watch event lands here, is judged by the model, and leaves
// the state the gate stops on. Also what the wait logs: progress lines and the heartbeat.
import type { RouteScope, RouteWatchHandlers } from '../../cluster/types.ts'
import { evaluateRoute } from '../../model/evaluate.ts'
import { notSynced } from '../../model/not-synced.ts'
import { routeId, routeKey, routeRef } from '../../model/route-id.ts'
import type {
  RouteKind,
  RouteObject,
  RouteVerdict,
  Verdict,
  VerdictOptions,
  World
} from '../../model/types.ts'
import { ReadyTimes } from './ready-times.ts'
import { Heartbeat } from '../../report/heartbeat.ts'
import { ProgressLog } from '../../report/progress.ts'
import type { GateRun } from './gate-run.ts'
import type { GateTargets } from './targets.ts'
import type { CarryWatch } from './carry-step.ts'

/**
 * Verdicts by Route key with a running count of each verdict: judging one watch event costs O(1), not
 * O(Routes), which with thousands of Routes made the wait quadratic.
 */
export class VerdictTally {
  readonly byKey = new Map<string, RouteVerdict>()
  private readonly counts: Record<Verdict, number> = { ready: 0, failed: 0, pending: 0 }

  set(key: string, verdict: RouteVerdict): void {
    this.delete(key)
    this.byKey.set(key, verdict)
    this.counts[verdict.verdict]++
  }

  delete(key: string): void {
    const previous = this.byKey.get(key)
    if (previous) this.counts[previous.verdict]--
    this.byKey.delete(key)
  }

  /** expected: how many Routes must be judged (by name), or undefined for those seen */
  overall(expected: number | undefined): 'ready' | 'failed' | 'pending' {
    const total = expected ?? this.byKey.size
    if (total === 0) return 'pending'
    if (this.counts.failed > 0) return 'failed'
    return this.counts.ready === total ? 'ready' : 'pending'
  }
}

/** What the collector says after each judged batch: all there, and ready or failed. */
export type WaitState = 'ready' | 'failed' | 'pending'

export class WaitCollector {
  readonly routes = new Map<string, RouteObject>()
  readonly verdicts = new VerdictTally()
  readonly readyTimes = new ReadyTimes()
  /** when the gate first saw each Route: the start of its grace for a missing Gateway */
  private readonly firstSeen = new Map<string, number>()
  /**
   * Every kind and namespace is listed on its own; until each has answered once, the Routes seen so
   * far are not all there are, and "all ready" would be a guess.
   */
  private readonly unlisted: Map<string, string>
  private readonly wanted: Set<string>
  private readonly progress: ProgressLog
  private readonly heartbeat: Heartbeat
  private judged: (state: WaitState) => void = () => {}

  constructor(
    private readonly run: GateRun,
    private readonly targets: GateTargets,
    private readonly world: World,
    private readonly options: VerdictOptions,
    readonly carry: CarryWatch
  ) {
    this.unlisted = new Map(listTargets(targets.scope))
    this.wanted = new Set(targets.names.map(routeKey))
    this.progress = new ProgressLog(run.started)
    this.heartbeat = new Heartbeat(run.deadline)
  }

  /** The watch handlers; `judged` hears the state after every batch of changes. */
  handlers(judged: (state: WaitState) => void): Pick<RouteWatchHandlers, 'onList' | 'onChange'> {
    this.judged = judged
    return {
      onList: (kind, namespace, listed) => {
        this.unlisted.delete(targetKey(kind, namespace))
        for (const [key, route] of this.routes) {
          if (route.kind === kind && (namespace === null || route.metadata.namespace === namespace))
            this.forget(key)
        }
        const kept = listed.filter((route) => this.inScope(route))
        for (const route of kept) this.routes.set(routeKey(routeRef(route)), route)
        judged(this.judge(kept))
      },
      onChange: (type, route) => {
        if (!this.inScope(route)) return
        const key = routeKey(routeRef(route))
        if (type === 'DELETED') {
          this.forget(key)
          this.run.log(`${routeId(routeRef(route))}: deleted while waiting`)
          return
        }
        this.routes.set(key, route)
        judged(this.judge([route]))
      }
    }
  }

  /** Judges every Route again: what the carry step waits for changed. */
  rejudge(): void {
    if (this.routes.size > 0) this.judged(this.judge([...this.routes.values()]))
  }

  /**
   * The Route's verdict: held (NotSynced) while the cluster does not carry its file or marker.
   * `writers`: at the deadline, the last writer of what each held Route waits for, by Route key.
   */
  evaluate(
    route: RouteObject,
    world: World,
    options: VerdictOptions,
    writers?: Map<string, string>
  ): RouteVerdict {
    const verdict = evaluateRoute(route, world, options)
    const held = this.carry.hold(route)
    if (held === undefined) return verdict
    const writer = writers?.get(routeKey(routeRef(route)))
    const message =
      writer === undefined ? held.message : `${held.message}; last written by ${writer}`
    return notSynced(verdict, message, options.final)
  }

  /** One heartbeat line: on a change, or `always` on the heartbeat's own interval. */
  beat(always: boolean): void {
    const line = this.heartbeat.line(this.expected(), this.run.now(), always)
    if (line !== undefined) this.run.log(line)
  }

  /** The verdicts of Routes first seen at least `ms` ago. */
  seenFor(ms: number): RouteVerdict[] {
    const now = this.run.now()
    return [...this.verdicts.byKey]
      .filter(([key]) => now - (this.firstSeen.get(key) ?? Infinity) >= ms)
      .map(([, verdict]) => verdict)
  }

  /** "HTTPRoutes in namespace shop", for each list that has not answered yet. */
  unlistedNames(): string[] {
    return [...this.unlisted.values()]
  }

  private judge(changed: RouteObject[]): WaitState {
    const fresh: RouteVerdict[] = []
    for (const route of changed) {
      const key = routeKey(routeRef(route))
      const verdict = this.evaluate(route, this.world, this.options)
      if (!this.firstSeen.has(key)) this.firstSeen.set(key, this.run.now())
      this.verdicts.set(key, verdict)
      this.heartbeat.observe(key, verdict)
      this.readyTimes.observe(key, verdict.verdict, this.run.now())
      fresh.push(verdict)
    }
    for (const line of this.progress.update(fresh, this.run.now())) this.run.log(line)
    this.beat(false)
    const state = this.verdicts.overall(this.expected())
    return state === 'ready' && this.unlisted.size > 0 ? 'pending' : state
  }

  private forget(key: string): void {
    this.routes.delete(key)
    this.verdicts.delete(key)
    this.heartbeat.forget(key)
  }

  private inScope(route: RouteObject): boolean {
    return !this.targets.byName || this.wanted.has(routeKey(routeRef(route)))
  }

  private expected(): number | undefined {
    return this.targets.byName ? this.wanted.size : undefined
  }
}

const targetKey = (kind: RouteKind, namespace: string | null): string =>
  `${kind}/${namespace ?? '*'}`

/**
 * The (kind, namespace) pairs the cluster layer lists one by one, by targetKey, each with how a
 * message names it: "HTTPRoutes in namespace shop", "GRPCRoutes in every namespace".
 */
function listTargets(scope: RouteScope): [string, string][] {
  const namespaces = scope.namespaces === 'all' ? [null] : scope.namespaces
  return scope.kinds.flatMap((kind) =>
    namespaces.map((ns): [string, string] => [
      targetKey(kind, ns),
      `${kind}s in ${ns === null ? 'every namespace' : `namespace ${ns}`}`
    ])
  )
}
