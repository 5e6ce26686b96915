// What a controller wrote on the other Routes of one parent: the evidence for a parent the rules
// alone leave to the controller (a Gateway it refused for a reason other than its listeners, a
// ListenerSet whose status it never wrote). Where every other Route on the very same parentRef
// (same sectionName and port) carries the same fresh answer from that controller, a new Route there
// gets that answer; otherwise the parent stays unknown.
import { readEntries } from '../model/entries.ts'
import { parentRefKey } from '../model/parent-ref.ts'
import { perList } from '../model/per-list.ts'
import { routeIdOf } from '../model/route-id.ts'
import type { Condition, ParentRef, RouteObject } from '../model/types.ts'

export type SiblingEvidence =
  { kind: 'accepted'; example: string } | { kind: 'refused'; condition: Condition; example: string }

interface Written {
  route: RouteObject
  kind: string
  controllerName: string | undefined
  accepted: Condition | undefined
}

/** Every status entry of the Routes, by parentRef (scope included), built once per Route list. */
const entriesByParent = perList((routes): Map<string, Written[]> => {
  const out = new Map<string, Written[]>()
  for (const route of routes) {
    const entries = readEntries(route.status, route.metadata.namespace, route.metadata.generation)
    for (const entry of entries) {
      const key = parentRefKey(entry.parentRef)
      const written: Written = {
        route,
        kind: route.kind,
        controllerName: entry.controllerName,
        accepted: entry.conditions.find((c) => c.type === 'Accepted')
      }
      const list = out.get(key)
      if (list) list.push(written)
      else out.set(key, [written])
    }
  }
  return out
})

/** The one answer `controllerName` wrote on every other Route of the kind on `ref`, or undefined. */
function siblingEvidence(
  route: RouteObject,
  ref: ParentRef,
  controllerName: string,
  routes: readonly RouteObject[]
): SiblingEvidence | undefined {
  const others = (entriesByParent(routes).get(parentRefKey(ref)) ?? []).filter(
    (w) =>
      w.controllerName === controllerName &&
      w.kind === route.kind &&
      w.accepted?.fresh === true &&
      w.accepted.status !== 'Unknown' &&
      routeIdOf(w.route) !== routeIdOf(route)
  )
  const first = others[0]
  if (!first?.accepted) return undefined
  const { status, reason } = first.accepted
  if (!others.every((w) => w.accepted?.status === status && w.accepted.reason === reason))
    return undefined
  const example = routeIdOf(first.route)
  return status === 'True'
    ? { kind: 'accepted', example }
    : { kind: 'refused', condition: first.accepted, example }
}

/** Reasons a controller writes for a parentRef itself, whatever the Route asks for. */
const PARENT_REASONS = new Set(['InvalidGateway', 'NoMatchingParent'])

/**
 * An undecided parent, decided by what its controller wrote on every other Route of the same kind
 * on the very same parentRef: refused there for a parent-level reason, refused here; accepted
 * there, judged here by the rules (undefined); with no such evidence, unknown.
 */
export function fromSiblings(
  route: RouteObject,
  ref: ParentRef,
  controllerName: string,
  undecided: string,
  routes: readonly RouteObject[]
): { kind: 'unknown' } | { kind: 'refused'; reason: string; message: string } | undefined {
  const evidence = siblingEvidence(route, ref, controllerName, routes)
  if (evidence?.kind === 'accepted') return undefined
  const reason = evidence?.kind === 'refused' ? evidence.condition.reason : undefined
  if (evidence === undefined || reason === undefined || !PARENT_REASONS.has(reason))
    return { kind: 'unknown' }
  const why = undecided.replace(
    / what (it writes on the Route|its Routes get) is up to the controller\.$/,
    ''
  )
  return {
    kind: 'refused',
    reason,
    message: `${why} Its controller wrote Accepted=False ${reason} on the other ${route.kind}s of this parentRef (${evidence.example}).`
  }
}
