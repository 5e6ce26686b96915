// ResolvedRefs predicted forwards: each backendRef in the order Gateway API checks (kind, grant,
// Service and port), with what each controller writes of its own (Envoy Gateway's port reasons,
// Contour's UnsupportedProtocol and rules without backends), and unknown where the source cannot
// tell (a kind predict cannot check, a BackendTLSPolicy).
import { findController } from '../rules/controllers.ts'
import { grantFor, serviceRefState } from '../rules/references.ts'
import type { ServiceRefState } from '../rules/references.ts'
import { servicePortsOf } from '../rules/world.ts'
import {
  describeBackendRef,
  emptyRules,
  isServiceRef,
  routeBackendRefs
} from '../model/route-spec.ts'
import type { BackendRef } from '../model/route-spec.ts'
import type { KubeObject, RouteObject } from '../model/types.ts'
import { listing } from '../wording/phrasing.ts'
import { addToDump, ready, refused, unknown } from './outcome.ts'
import type { Outcome } from './outcome.ts'
import { tlsPolicyOutcome } from './tls-policies.ts'
import type { NeededKind, Objects } from './overlay.ts'

/** How a controller's catalogue spells a backend kind: "Backend (gateway.envoyproxy.io)". */
function takesBackendKind(kinds: string[], ref: BackendRef): boolean {
  return kinds.some(
    (k) => k === `${ref.kind} (${ref.group})` || (ref.group === '' && k === ref.kind)
  )
}

/**
 * Envoy Gateway names a Service port problem with its own reasons (internal/gatewayapi/validate.go);
 * the others write BackendNotFound.
 */
const PORT_REASONS: Record<string, Partial<Record<ServiceRefState, string>>> = {
  'gateway.envoyproxy.io/gatewayclass-controller': {
    'no-port': 'PortNotFound',
    'port-unset': 'PortNotSpecified'
  }
}

function portReason(controllerName: string | undefined, state: ServiceRefState): string {
  return (controllerName && PORT_REASONS[controllerName]?.[state]) || 'BackendNotFound'
}

type BackendOutcome =
  { reason: string; message: string } | { why: string; needs?: NeededKind } | undefined

/** One backendRef, in the order Gateway API checks: kind, grant, Service and port. */
function predictBackend(
  route: RouteObject,
  ref: BackendRef,
  controllerName: string | undefined,
  objects: Objects,
  gateway: KubeObject | undefined
): BackendOutcome {
  const described = `${ref.where} (${describeBackendRef(ref)})`
  if (!isServiceRef(ref)) {
    const controller = findController(controllerName)
    const kinds = controller?.supports?.backendKinds
    if (kinds && !takesBackendKind(kinds, ref)) {
      return {
        reason: 'InvalidKind',
        message: `${described}: ${controller?.name ?? 'the controller'} takes backend kinds ${listing(kinds)} only.`
      }
    }
    return {
      why: `${described} is not a core Service; ${kinds ? `${controller?.name ?? 'the controller'} takes that kind, and` : 'whether the controller takes it is not known, and'} predict cannot check the object it names.`
    }
  }
  if (
    ref.namespace !== route.metadata.namespace &&
    !grantFor(objects.grantsFor(ref.namespace, route), route, ref)
  ) {
    return objects.complete('ReferenceGrant')
      ? {
          reason: 'RefNotPermitted',
          message: `${described} is in namespace ${ref.namespace}, and no ReferenceGrant there permits ${route.kind} from ${route.metadata.namespace} to reference it.`
        }
      : {
          why: `${described} is in another namespace; ${addToDump('ReferenceGrant')}.`,
          needs: 'ReferenceGrant'
        }
  }
  const service = objects.service(ref.namespace, ref.name)
  if (!service && !objects.complete('Service'))
    return { why: `Whether ${described} exists: ${addToDump('Service')}.`, needs: 'Service' }
  switch (serviceRefState(service, ref)) {
    case 'no-service':
      return {
        reason: 'BackendNotFound',
        message: `${described}: Service ${ref.namespace}/${ref.name} does not exist.`
      }
    case 'no-port':
      return {
        reason: portReason(controllerName, 'no-port'),
        message: `${described}: Service ${ref.namespace}/${ref.name} has no port ${ref.port ?? ''}.`
      }
    case 'port-unset':
      return {
        reason: portReason(controllerName, 'port-unset'),
        message: `${described} has no port; a Service backendRef needs one.`
      }
    case 'external-name':
      return {
        why: `${described} is an ExternalName Service: some controllers take it (Contour, Traefik), others refuse it (Envoy Gateway: UnsupportedValue).`
      }
    case 'resolves':
      return (
        unsupportedProtocol(service!, ref, controllerName, described) ??
        tlsPolicyOutcome(
          ref,
          servicePortsOf(service!).find((p) => p.port === ref.port),
          controllerName,
          gateway,
          objects,
          described
        )
      )
  }
}

/** The Service port appProtocols Contour serves (internal/dag/accessors.go toContourProtocol). */
const CONTOUR_APP_PROTOCOLS = new Set(['kubernetes.io/h2c', 'kubernetes.io/ws', 'http', 'https'])

/** Contour refuses a backend whose Service port names another appProtocol (UnsupportedProtocol). */
function unsupportedProtocol(
  service: KubeObject,
  ref: BackendRef,
  controllerName: string | undefined,
  described: string
): BackendOutcome {
  if (!controllerName?.startsWith('projectcontour.io/')) return undefined
  const port = servicePortsOf(service).find((p) => p.port === ref.port)
  if (port?.appProtocol === undefined || CONTOUR_APP_PROTOCOLS.has(port.appProtocol))
    return undefined
  return {
    reason: 'UnsupportedProtocol',
    message: `${described}: Service ${ref.namespace}/${ref.name} port ${port.port} has appProtocol ${port.appProtocol}; Contour serves only ${listing([...CONTOUR_APP_PROTOCOLS])}.`
  }
}

/** The ResolvedRefs reasons in the order a controller reports them: the kind first, the object last. */
const BACKEND_ORDER = [
  'InvalidKind',
  'RefNotPermitted',
  'BackendNotFound',
  'PortNotFound',
  'PortNotSpecified',
  'UnsupportedProtocol'
]

/**
 * Contour refuses a rule without backendRefs (ResolvedRefs=False Degraded, "At least one
 * Spec.Rules.BackendRef must be specified."); Gateway API allows it and others serve HTTP 500 there.
 */
function contourEmptyRules(
  route: RouteObject,
  controllerName: string | undefined
): Outcome | undefined {
  if (!controllerName?.startsWith('projectcontour.io/')) return undefined
  const rules = emptyRules(route).map((r) => r.index)
  if (rules.length === 0) return undefined
  return refused(
    'Degraded',
    `Rule ${listing(rules.map(String))} has no backendRefs; Contour requires at least one (At least one Spec.Rules.BackendRef must be specified).`
  )
}

export function predictResolvedRefs(
  route: RouteObject,
  controllerName: string | undefined,
  objects: Objects,
  /** the parent's Gateway: a BackendTLSPolicy's status is per Gateway */
  gateway?: KubeObject
): Outcome {
  const outcomes = routeBackendRefs(route).map((ref) =>
    predictBackend(route, ref, controllerName, objects, gateway)
  )
  const failures = outcomes.filter(
    (o): o is { reason: string; message: string } => o !== undefined && 'reason' in o
  )
  const empty = contourEmptyRules(route, controllerName)
  if (empty && failures.length === 0) return empty
  if (failures.length > 0) {
    const first =
      BACKEND_ORDER.find((reason) => failures.some((f) => f.reason === reason)) ??
      failures[0]!.reason
    return refused(
      first,
      failures
        .filter((f) => f.reason === first)
        .map((f) => f.message)
        .join(' ')
    )
  }
  const open = outcomes.filter(
    (o): o is { why: string; needs?: NeededKind } => o !== undefined && 'why' in o
  )
  if (open.length > 0)
    return unknown(open.map((o) => o.why).join(' '), open.find((o) => o.needs)?.needs)
  return ready('ResolvedRefs', 'Every backendRef resolves.')
}
