// Monitor mode's memory: what changed between the previous run and this one, and, during a watch
// window, as it happens. Pure: states in, transitions out.
import { compareText, routeKey } from './route-id.ts'
import { ROUTE_KINDS } from './types.ts'
import type { Transition, TransitionState, Verdict } from './types.ts'

/** What the monitor remembers of a Route between runs. A RouteResult is one. */
export interface RouteState {
  kind: string
  namespace: string
  name: string
  verdict: Verdict
}

export type Change = 'degraded' | 'recovered' | 'added' | 'removed' | 'changed'

export function changeOf(t: Pick<Transition, 'from' | 'to'>): Change {
  if (t.from === 'absent') return 'added'
  if (t.to === 'absent') return 'removed'
  if (t.from === 'ready') return 'degraded'
  if (t.to === 'ready') return 'recovered'
  return 'changed'
}

export const isDegradation = (t: Pick<Transition, 'from' | 'to'>): boolean =>
  changeOf(t) === 'degraded'

function transition(
  id: { kind: string; namespace: string; name: string },
  from: TransitionState,
  to: TransitionState
): Transition {
  return { kind: id.kind, namespace: id.namespace, name: id.name, from, to }
}

/**
 * Every Route whose state differs between `before` and `after`, new and deleted ones included, in
 * kind/namespace/name order. Without a previous state (the first run) there is nothing to compare
 * with: that run is the baseline and reports no transitions. A renamed Route is a deleted one and a
 * new one: Kubernetes has no rename.
 */
export function diffStates(before: RouteState[] | undefined, after: RouteState[]): Transition[] {
  if (before === undefined) return []
  const old = new Map(before.map((s) => [routeKey(s), s]))
  const now = new Map(after.map((s) => [routeKey(s), s]))
  const out: Transition[] = []
  for (const [key, s] of now) {
    const was = old.get(key)?.verdict ?? 'absent'
    if (was !== s.verdict) out.push(transition(s, was, s.verdict))
  }
  for (const [key, s] of old) if (!now.has(key)) out.push(transition(s, s.verdict, 'absent'))
  return out.sort(
    (a, b) =>
      compareText(a.kind, b.kind) ||
      compareText(a.namespace, b.namespace) ||
      compareText(a.name, b.name)
  )
}

/**
 * Follows Routes through a watch window, recording each transition when it happens. A change to
 * pending is held until it settles: back to the recorded state, it is dropped; to another state, that
 * is recorded; still pending at the end, it is recorded then. A controller catching up with a new
 * generation passes through pending for a moment, and that is no degradation.
 */
export class TransitionLog {
  private readonly recorded = new Map<string, RouteState>()
  private readonly log: Transition[] = []

  constructor(baseline: RouteState[]) {
    for (const s of baseline) this.recorded.set(routeKey(s), s)
  }

  /** The Route's state now; returns the transition it records, if any. */
  observe(state: RouteState): Transition | undefined {
    const key = routeKey(state)
    const was = this.recorded.get(key)?.verdict ?? 'absent'
    if (state.verdict === 'pending' || state.verdict === was) return undefined
    return this.record(key, transition(state, was, state.verdict), state)
  }

  /** The Route is gone; returns the transition it records, if any. */
  remove(id: { kind: string; namespace: string; name: string }): Transition | undefined {
    const key = routeKey(id)
    const was = this.recorded.get(key)
    if (was === undefined) return undefined
    return this.record(key, transition(was, was.verdict, 'absent'), undefined)
  }

  /** The Routes' states at the end of the window; returns every transition of the window. */
  finish(final: RouteState[]): Transition[] {
    const settled = diffStates([...this.recorded.values()], final)
    for (const t of settled) this.log.push(t)
    return [...this.log]
  }

  private record(key: string, t: Transition, state: RouteState | undefined): Transition {
    if (state === undefined) this.recorded.delete(key)
    else this.recorded.set(key, state)
    this.log.push(t)
    return t
  }
}

const VERDICTS = new Set(['ready', 'failed', 'pending'])
const KINDS = new Set<string>(ROUTE_KINDS)

/** The Route states of a report or state object; undefined when it is neither. */
export function parseRouteStates(value: unknown): RouteState[] | undefined {
  const routes = (value as { routes?: unknown } | null)?.routes
  if (!Array.isArray(routes)) return undefined
  const states: RouteState[] = []
  for (const r of routes as unknown[]) {
    const { kind, namespace, name, verdict } = (r ?? {}) as Record<string, unknown>
    if (
      typeof kind !== 'string' ||
      !KINDS.has(kind) ||
      typeof namespace !== 'string' ||
      typeof name !== 'string' ||
      typeof verdict !== 'string' ||
      !VERDICTS.has(verdict)
    ) {
      return undefined
    }
    states.push({ kind, namespace, name, verdict: verdict as RouteState['verdict'] })
  }
  return states
}
