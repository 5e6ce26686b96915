// Whether a listener admits a Route (Gateway API allowedRoutes): its namespace (Same, All, Selector),
// its Route kinds, and its controller's own verdict on the listener. Typed causes only; the sentences
// are wording/admission.ts.
import { checkSelector } from './selectors.ts'
import type { Unmet } from './selectors.ts'
import { listenerKinds } from './listener-selection.ts'
import { findNamespace, listenerRefusal, listenerStatusesOf, namespaceLabels } from './world.ts'
import type { Listener } from './world.ts'
import type { Condition, KubeObject, RouteObject, World } from '../model/types.ts'

/** Why a listener refuses a Route, or cannot be judged. */
export type AdmissionCause =
  /** from: Same, and the Route is in another namespace than the listener's holder */
  | { cause: 'same-namespace-only'; gatewayNamespace: string }
  /** from: Selector, and the Route's namespace (its labels) is not in the World */
  | { cause: 'namespace-unread'; selector: unknown }
  | { cause: 'selector-unmet'; selector: unknown; unmet: Unmet[] }
  /** allowedRoutes.namespaces.from is none of All, Same, Selector */
  | { cause: 'unknown-from'; from: string }
  /** the controller wrote Accepted=False on the listener */
  | { cause: 'listener-refused'; condition: Condition }
  /** the listener takes these Route kinds, not the Route's */
  | { cause: 'kind-not-taken'; kinds: string[] }

export interface Admission {
  listener: Listener
  routeKind: string
  routeNamespace: string
  namespace: 'ok' | 'refused' | 'unknown'
  kind: 'ok' | 'refused'
  /** the reason of the listener's Accepted=False: its controller refused it, so it admits nothing */
  refusedBy?: string
  /** every cause found, in the order namespace, controller, kind; empty when the listener admits */
  causes: AdmissionCause[]
  /** kubectl label arguments that would make the namespace match the listener's selector */
  labelChanges: string[]
  kinds?: string[]
}

function namespaceCause(
  listener: Listener,
  gatewayNamespace: string,
  routeNamespace: string,
  world: World
): { namespace: Admission['namespace']; cause?: AdmissionCause; labelChanges: string[] } {
  if (listener.from === 'Same' && routeNamespace !== gatewayNamespace) {
    const cause = { cause: 'same-namespace-only' as const, gatewayNamespace }
    return { namespace: 'refused', cause, labelChanges: [] }
  }
  if (listener.from === 'Selector') {
    const namespace = findNamespace(world, routeNamespace)
    if (!namespace) {
      const cause = { cause: 'namespace-unread' as const, selector: listener.selector }
      return { namespace: 'unknown', cause, labelChanges: [] }
    }
    const check = checkSelector(listener.selector, namespaceLabels(namespace))
    if (check.matches) return { namespace: 'ok', labelChanges: [] }
    const cause = {
      cause: 'selector-unmet' as const,
      selector: listener.selector,
      unmet: check.unmet
    }
    return { namespace: 'refused', cause, labelChanges: check.labelChanges }
  }
  if (listener.from !== 'Same' && listener.from !== 'All') {
    return {
      namespace: 'ok',
      cause: { cause: 'unknown-from', from: listener.from },
      labelChanges: []
    }
  }
  return { namespace: 'ok', labelChanges: [] }
}

/** Whether a listener admits a Route: namespace, kind, and its controller's own verdict on it. */
export function admission(
  listener: Listener,
  gateway: KubeObject,
  route: RouteObject,
  world: World
): Admission {
  const routeNamespace = route.metadata.namespace
  const status = listenerStatusesOf(gateway).find((s) => s.name === listener.name)
  const ns = namespaceCause(listener, gateway.metadata.namespace ?? '', routeNamespace, world)
  const result: Admission = {
    listener,
    routeKind: route.kind,
    routeNamespace,
    namespace: ns.namespace,
    kind: 'ok',
    causes: ns.cause ? [ns.cause] : [],
    labelChanges: ns.labelChanges
  }
  const refusal = listenerRefusal(gateway, listener.name)
  if (refusal) {
    result.refusedBy = refusal.reason ?? 'Accepted=False'
    result.causes.push({ cause: 'listener-refused', condition: refusal })
  }
  const kinds = listenerKinds(listener, status)
  if (kinds) {
    result.kinds = kinds
    if (!kinds.includes(route.kind)) {
      result.kind = 'refused'
      result.causes.push({ cause: 'kind-not-taken', kinds })
    }
  }
  return result
}

export function admits(a: Admission): boolean {
  return a.namespace !== 'refused' && a.kind === 'ok' && a.refusedBy === undefined
}
