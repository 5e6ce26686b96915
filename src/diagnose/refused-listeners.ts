// A listener its controller refused (gateway-api-status: listener conditions): the cause of
// NotAllowedByListeners and NoMatchingParent on the Routes that target it, and what to change for the
// reason the controller gave. Pure and shared: the gate's advice and `predict` read the same rule.
import { controllerLabel, findController } from './controllers.ts'
import { specKinds } from './listener-selection.ts'
import { describeCondition, listing } from './phrasing.ts'
import { conditionOf } from './world.ts'
import type { Listener, ListenerStatus } from './world.ts'
import { GATEWAY_GROUP } from '../model/types.ts'

export interface Refusal {
  listener: Listener
  /** "Accepted=False (PortUnavailable): no matching entryPoint for port 80" */
  condition: string
  /** what to change, as a clause that can follow "; " */
  fix: string
}

/** The fix for a listener condition's reason; a generic pointer at the message for other reasons. */
function fixFor(reason: string | undefined, listener: Listener, controllerName?: string): string {
  const port = listener.port === undefined ? 'its port' : `port ${listener.port}`
  switch (reason) {
    case 'PortUnavailable': {
      const traefik = findController(controllerName)?.name === 'Traefik'
      return `expose ${port} on the controller${traefik ? ` (for Traefik, an entryPoint on ${port})` : ''}, or move listener ${listener.name} to a port the controller serves`
    }
    case 'UnsupportedProtocol':
      return `set the protocol of listener ${listener.name} to one the controller supports (it is ${listener.protocol ?? 'unset'})`
    case 'InvalidCertificateRef':
    case 'RefNotPermitted':
      return `fix the certificate reference of listener ${listener.name} (tls.certificateRefs: the Secret must exist and hold a valid kubernetes.io/tls key pair; one in another namespace needs a ReferenceGrant)`
    case 'ProtocolConflict':
      return `give listener ${listener.name} a port that no listener of another protocol uses, or make their protocols agree`
    case 'HostnameConflict':
      return `give listener ${listener.name} a hostname that no other listener on ${port} uses`
    case 'UnsupportedAddress':
      return `change the Gateway's spec.addresses to ones the controller supports`
    case 'InvalidRouteKinds':
      return `set allowedRoutes.kinds of listener ${listener.name} to Route kinds the controller supports`
    default:
      return `fix listener ${listener.name} as the controller's message says`
  }
}

/**
 * Whether the controller refused this listener for a Route of `routeKind`: Accepted=False,
 * Programmed=False (other than Pending), or supportedKinds that leave out a kind the spec admits.
 */
export function listenerRefusal(
  listener: Listener,
  status: ListenerStatus | undefined,
  routeKind: string,
  controllerName?: string
): Refusal | undefined {
  if (!status) return undefined
  for (const type of ['Accepted', 'Programmed']) {
    const c = conditionOf(status.conditions, type)
    if (c?.status === 'False' && c.reason !== 'Pending') {
      return {
        listener,
        condition: describeCondition(c),
        fix: fixFor(c.reason, listener, controllerName)
      }
    }
  }
  const supported = status.supportedKinds
    ?.filter((k) => k.group === GATEWAY_GROUP)
    .map((k) => k.kind)
  // Without a condition that says why, supportedKinds alone is the controller's kind support, which
  // the kind rules in listeners.ts explain.
  const resolved = conditionOf(status.conditions, 'ResolvedRefs')
  if (
    resolved?.status === 'False' &&
    supported &&
    !supported.includes(routeKind) &&
    specKinds(listener)?.includes(routeKind)
  ) {
    return {
      listener,
      condition: `supportedKinds ${supported.length > 0 ? `lists only ${listing(supported)}` : 'is empty'}, though the spec admits ${routeKind}; ${describeCondition(resolved)}`,
      fix: fixFor(resolved.reason, listener, controllerName)
    }
  }
  return undefined
}

/** "listener http was refused by Traefik (traefik.io/gateway-controller): Accepted=False (…): …" */
export function describeRefusals(refusals: Refusal[], controllerName?: string): string {
  const who = controllerLabel(controllerName)
  const [only] = refusals
  if (refusals.length === 1 && only) {
    return `listener ${only.listener.name} was refused by ${who}: ${only.condition}`
  }
  return `listeners ${listing(refusals.map((r) => r.listener.name))} were refused by ${who} (${refusals.map((r) => `${r.listener.name}: ${r.condition}`).join('; ')})`
}
