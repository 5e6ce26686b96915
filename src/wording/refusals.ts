// A listener its controller refused, as the evidence says it, and what to change for the reason the
// controller gave.
import { findController } from '../rules/controllers.ts'
import type { Refusal } from '../rules/refused-listeners.ts'
import type { Listener } from '../rules/world.ts'
import { controllerLabel } from './controllers.ts'
import { describeCondition, listing } from './phrasing.ts'

/** "Accepted=False (PortUnavailable): no matching entryPoint for port 80" */
export function refusalCondition(refusal: Refusal): string {
  if (refusal.by === 'condition') return describeCondition(refusal.condition)
  const { supported, routeKind, condition } = refusal
  return `supportedKinds ${supported.length > 0 ? `lists only ${listing(supported)}` : 'is empty'}, though the spec admits ${routeKind}; ${describeCondition(condition)}`
}

/** The fix for a listener condition's reason, as a clause that can follow "; ". */
export function refusalFix(refusal: Refusal, controllerName?: string): string {
  return fixFor(refusal.condition.reason, refusal.listener, controllerName)
}

/** A generic pointer at the message for reasons without a fix of their own. */
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

/** "listener http was refused by Traefik (traefik.io/gateway-controller): Accepted=False (…): …" */
export function describeRefusals(refusals: Refusal[], controllerName?: string): string {
  const who = controllerLabel(controllerName)
  const [only] = refusals
  if (refusals.length === 1 && only) {
    return `listener ${only.listener.name} was refused by ${who}: ${refusalCondition(only)}`
  }
  return `listeners ${listing(refusals.map((r) => r.listener.name))} were refused by ${who} (${refusals.map((r) => `${r.listener.name}: ${refusalCondition(r)}`).join('; ')})`
}
