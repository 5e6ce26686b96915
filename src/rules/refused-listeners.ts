// A listener its controller refused (gateway-api-status: listener conditions): the cause of
// NotAllowedByListeners and NoMatchingParent on the Routes that target it. Pure and shared: the
// gate's advice and `predict` read the same rule; wording/refusals.ts says it and its fix.
import { specKinds } from './listener-selection.ts'
import { conditionOf } from './world.ts'
import type { Listener, ListenerStatus } from './world.ts'
import { GATEWAY_GROUP } from '../model/types.ts'
import type { Condition } from '../model/types.ts'

export type Refusal =
  /** Accepted=False, or Programmed=False other than Pending */
  | { listener: Listener; by: 'condition'; condition: Condition }
  /** ResolvedRefs=False with supportedKinds that leave out a kind the spec admits */
  | {
      listener: Listener
      by: 'supported-kinds'
      condition: Condition
      supported: string[]
      routeKind: string
    }

/**
 * Whether the controller refused this listener for a Route of `routeKind`: Accepted=False,
 * Programmed=False (other than Pending), or supportedKinds that leave out a kind the spec admits.
 */
export function listenerRefusal(
  listener: Listener,
  status: ListenerStatus | undefined,
  routeKind: string
): Refusal | undefined {
  if (!status) return undefined
  for (const type of ['Accepted', 'Programmed']) {
    const c = conditionOf(status.conditions, type)
    if (c?.status === 'False' && c.reason !== 'Pending') {
      return { listener, by: 'condition', condition: c }
    }
  }
  const supported = status.supportedKinds
    ?.filter((k) => k.group === GATEWAY_GROUP)
    .map((k) => k.kind)
  // Without a condition that says why, supportedKinds alone is the controller's kind support, which
  // the kind rules of admission explain.
  const resolved = conditionOf(status.conditions, 'ResolvedRefs')
  if (
    resolved?.status === 'False' &&
    supported &&
    !supported.includes(routeKind) &&
    specKinds(listener)?.includes(routeKind)
  ) {
    return { listener, by: 'supported-kinds', condition: resolved, supported, routeKind }
  }
  return undefined
}
