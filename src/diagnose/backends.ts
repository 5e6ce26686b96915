// Evidence for the reference reasons: the backendRefs a message names, whether their Services and
// ports exist, which ReferenceGrants permit them, and the grant to create (RefNotPermitted,
// BackendNotFound, InvalidKind, UnsupportedProtocol).
import type { Diagnosis, DiagnosisContext } from './context.ts'
import { oneOf } from '../model/nearest.ts'
import {
  describeBackendRef,
  emptyRules,
  isServiceRef,
  reportsEmptyRules,
  routeBackendRefs,
  routeRules
} from '../model/route-spec.ts'
import type { BackendRef } from '../model/route-spec.ts'
import { capitalize, listing, unique } from '../wording/phrasing.ts'
import { grantFor, grantFrom, grantTo, readGrant, serviceRefState } from '../rules/references.ts'
import type { Grant } from '../rules/references.ts'
import { canSee, findService, namesIn, servicePortsOf } from '../rules/world.ts'
import { nameIndexIn, objectsIn } from '../model/object-index.ts'
import { blindSpots, describeServicePort } from '../wording/objects.ts'
import { createFix } from './fixes.ts'
import type { ServicePort } from '../rules/world.ts'
import { GATEWAY_GROUP } from '../model/types.ts'
import type { KubeObject, RouteObject, World } from '../model/types.ts'
import { stringField } from '../model/unknown.ts'
import { routeIdOf } from '../model/route-id.ts'

/** The refs whose name the message mentions, or all of them when it names none (empty messages: Kong, Linkerd). */
function namedIn<T extends { name: string }>(refs: T[], message: string | undefined): T[] {
  const named = refs.filter(
    (r) =>
      message !== undefined &&
      new RegExp(`(^|[^a-z0-9-])${r.name.replace(/[.]/g, '\\.')}($|[^a-z0-9-])`).test(message)
  )
  return named.length > 0 ? named : refs
}

/** Why a grant in the backend's namespace does not cover this reference, as a sentence. */
function nearMiss(grant: Grant, ref: BackendRef, route: RouteObject): string {
  const name = `ReferenceGrant ${grant.object.metadata.namespace ?? ''}/${grant.object.metadata.name}`
  const froms = grant.from.map((f) => `${groupKind(f)} in ${f.namespace}`)
  const tos = grant.to.map((t) => `${groupKind(t)}${t.name ? ` ${t.name}` : ' (any name)'}`)
  if (!grantFrom(grant, route)) {
    return `${name} allows ${listing(froms) || 'nothing'}, not ${groupKind({ group: GATEWAY_GROUP, kind: route.kind })} in ${route.metadata.namespace} (a grant is per group, kind and namespace).`
  }
  return `${name} allows references to ${listing(tos) || 'nothing'}, not to ${groupKind(ref)} ${ref.name}.`
}

/**
 * "HTTPRoute (gateway.networking.k8s.io)", "Service (core)": grants match on both, so both are named.
 * A literal group "core" (a common mistake) must not read like the core group "" it fails to match.
 */
function groupKind(x: { group: string; kind: string }): string {
  const group =
    x.group === '' ? 'core' : x.group === 'core' ? 'group "core", not the core group ""' : x.group
  return `${x.kind} (${group})`
}

/** The ReferenceGrant apiVersion this cluster serves (discovery), or that the dump's grants carry. */
function grantApiVersion(world: World): string | undefined {
  return world.served?.ReferenceGrant ?? world.referenceGrants[0]?.apiVersion
}

function referenceGrant(
  route: RouteObject,
  namespace: string,
  refs: BackendRef[],
  apiVersion: string | undefined
): KubeObject {
  const kind = route.kind.toLowerCase()
  const to = unique(refs.map((r) => JSON.stringify([r.group, r.kind, r.name]))).map((key) => {
    const [group, refKind, name] = JSON.parse(key) as [string, string, string]
    return { group, kind: refKind, name }
  })
  return {
    // v1beta1 is served by every Gateway API release so far; v1 from v1.5 on
    apiVersion: apiVersion ?? `${GATEWAY_GROUP}/v1beta1`,
    kind: 'ReferenceGrant',
    metadata: { name: `allow-${route.metadata.namespace}-${kind}s`.slice(0, 253), namespace },
    spec: {
      from: [{ group: GATEWAY_GROUP, kind: route.kind, namespace: route.metadata.namespace }],
      to
    }
  }
}

export function explainRefNotPermitted(context: DiagnosisContext): Diagnosis {
  const { route, world, finding } = context
  const cross = routeBackendRefs(route).filter((r) => r.namespace !== route.metadata.namespace)
  if (cross.length === 0) {
    return {
      evidence: [
        `The ${route.kind} has no cross-namespace backendRef in its spec; the controller refers to another reference (a filter or certificate) or to an older spec.`
      ]
    }
  }
  const evidence: string[] = []
  const blind = unique(cross.flatMap((r) => blindSpots(world, 'referencegrants', r.namespace)))
  const grants = world.referenceGrants.map(readGrant)
  const missing = namedIn(cross, finding.message).filter((ref) => {
    const inNamespace = grants.filter((g) => g.object.metadata.namespace === ref.namespace)
    const permitted = inNamespace.some((g) => grantFrom(g, route) && grantTo(g, ref))
    if (permitted)
      evidence.push(
        `${ref.where} (${describeBackendRef(ref)}) is permitted by a ReferenceGrant in ${ref.namespace}.`
      )
    else if (blind.length === 0) {
      evidence.push(
        `${ref.where} refers to ${describeBackendRef(ref)} in another namespace, and no ReferenceGrant in ${ref.namespace} permits it.`
      )
      evidence.push(...inNamespace.map((g) => nearMiss(g, ref, route)))
    }
    return !permitted
  })
  evidence.push(...blind)
  if (missing.length === 0) {
    evidence.push(
      'Every cross-namespace backendRef is covered by a ReferenceGrant now; the condition may predate the grant.'
    )
    return { evidence }
  }
  const namespaces = unique(missing.map((r) => r.namespace))
  const served = grantApiVersion(world)
  const fixes = namespaces.map((ns) =>
    createFix(
      referenceGrant(
        route,
        ns,
        missing.filter((r) => r.namespace === ns),
        served
      )
    )
  )
  const targets = listing(unique(missing.map((r) => `${r.kind} ${r.namespace}/${r.name}`)))
  return {
    title: `No ReferenceGrant lets ${routeIdOf(route)} reference ${targets}`,
    remediation: `Create the ReferenceGrant below in namespace ${listing(namespaces)}: from ${route.kind} in ${route.metadata.namespace}, to ${targets}. Or move the backend into namespace ${route.metadata.namespace}.${served === undefined ? ` The served ReferenceGrant version could not be read: ${GATEWAY_GROUP}/v1beta1 is served by every Gateway API release, ${GATEWAY_GROUP}/v1 from v1.5 on.` : ''}`,
    evidence,
    fixes
  }
}

/**
 * What route-gate read that says a RefNotPermitted is no longer true: every cross-namespace
 * backendRef the message is about is permitted by a ReferenceGrant. Empty when nothing contradicts it.
 */
export function refuteRefNotPermitted(context: DiagnosisContext): string[] {
  const { route, world, finding } = context
  const cross = routeBackendRefs(route).filter((r) => r.namespace !== route.metadata.namespace)
  const facts: string[] = []
  for (const ref of namedIn(cross, finding.message)) {
    if (!canSee(world, 'referencegrants', ref.namespace)) return []
    const grant = grantFor(world.referenceGrants, route, ref)
    if (!grant) return []
    facts.push(
      `ReferenceGrant ${ref.namespace}/${grant.metadata.name} permits ${route.kind} in ${route.metadata.namespace} to reference ${describeBackendRef(ref)} (${ref.where}).`
    )
  }
  return facts
}

/**
 * What route-gate read that says a BackendNotFound is no longer true: every backendRef the message is
 * about is a Service that exists with the port asked for. Empty when nothing contradicts it.
 */
export function refuteBackendNotFound(context: DiagnosisContext): string[] {
  const { route, world, finding } = context
  // "no EndpointSlices": the Service may well exist; its Pods are what is missing
  if (/endpointslice/i.test(finding.message ?? '')) return []
  const facts: string[] = []
  for (const ref of namedIn(routeBackendRefs(route), finding.message)) {
    if (!isServiceRef(ref) || !canSee(world, 'services', ref.namespace)) return []
    if (serviceRefState(findService(world, ref.namespace, ref.name), ref) !== 'resolves') return []
    facts.push(`Service ${ref.namespace}/${ref.name} exists with port ${ref.port} (${ref.where}).`)
  }
  return facts
}

export function explainBackendNotFound(context: DiagnosisContext): Diagnosis {
  const { route, finding } = context
  if (reportsEmptyRules(finding.message, route)) return explainEmptyRules(route)
  return explainMissingBackends(context)
}

/** A controller that reports rules without backendRefs: name them; the other rules' backends are fine. */
function explainEmptyRules(route: RouteObject): Diagnosis {
  const rules = emptyRules(route).map((r) => r.index)
  const which = `rule${rules.length === 1 ? '' : 's'} ${listing(rules.map(String))}`
  return {
    title: `${capitalize(which)} of the ${route.kind} ${rules.length === 1 ? 'has' : 'have'} no backendRefs`,
    remediation: `Add backendRefs (or a RequestRedirect filter) to ${which}, or remove ${rules.length === 1 ? 'it' : 'them'} if answering its requests with HTTP 500 is not intended.`,
    evidence: [
      `${capitalize(which)} ${rules.length === 1 ? 'has' : 'have'} no backendRefs: Gateway API allows that (the data plane answers matching requests with HTTP 500), and this controller reports it.`
    ]
  }
}

function explainMissingBackends(context: DiagnosisContext): Diagnosis {
  const { route, world, finding } = context
  const message = finding.message ?? ''
  const refs = routeBackendRefs(route)
  const focus = namedIn(refs.filter(isServiceRef), message)
  const evidence: string[] = []
  const remedies: string[] = []
  if (/endpointslice/i.test(message)) {
    evidence.push(
      'The message says the Service has no EndpointSlices: the Service may exist but select no Pods.'
    )
    remedies.push('check the Service selector and that its Pods are running and ready')
  }
  const titles: string[] = []
  for (const ref of focus) {
    const check = checkServiceRef(ref, world, evidence)
    remedies.push(...check.remedies)
    if (check.title) titles.push(check.title)
  }
  for (const ref of refs.filter((r) => !isServiceRef(r))) {
    evidence.push(
      `${ref.where} refers to ${describeBackendRef(ref)}, which route-gate does not look up.`
    )
  }
  const diagnosis: Diagnosis = {
    title: titles[0] ?? 'A backendRef of the Route does not resolve',
    evidence
  }
  if (remedies.length > 0) diagnosis.remediation = `${capitalize(unique(remedies).join('; '))}.`
  return diagnosis
}

interface RefCheck {
  remedies: string[]
  title?: string
}

/** Adds evidence for one Service backendRef and returns what it suggests. */
function checkServiceRef(ref: BackendRef, world: World, evidence: string[]): RefCheck {
  const service = findService(world, ref.namespace, ref.name)
  // a Service that is there proves itself; only its absence needs every Service of the namespace
  const blind = service ? [] : blindSpots(world, 'services', ref.namespace)
  if (blind.length > 0) {
    evidence.push(
      ...blind,
      `Whether Service ${ref.namespace}/${ref.name} (${ref.where}) exists could not be checked.`
    )
    return { remedies: [] }
  }
  if (!service) {
    const existing = objectsIn(world.services, ref.namespace)
    // a Service without the referenced port would only trade BackendNotFound for another failure
    const hasPort = (name: string): boolean => {
      if (ref.port === undefined) return true
      const found = findService(world, ref.namespace, name)
      return found !== undefined && servicePortsOf(found).some((p) => p.port === ref.port)
    }
    const nearest = nameIndexIn(world.services, ref.namespace).nearest(ref.name, 3, hasPort)
    evidence.push(
      `${ref.where} refers to Service ${ref.namespace}/${ref.name}, which does not exist.`
    )
    evidence.push(
      existing.length === 0
        ? `Namespace ${ref.namespace} has no Services.`
        : `Services in ${ref.namespace}: ${listing(namesIn(existing.slice(0, 10)))}.`
    )
    return {
      title: `${ref.where}: Service ${ref.namespace}/${ref.name} does not exist`,
      remedies: [
        nearest.length > 0
          ? `point ${ref.where} at ${oneOf(nearest)} (the nearest existing Service in ${ref.namespace}${ref.port === undefined ? '' : ` with port ${ref.port}`}) or create Service ${ref.namespace}/${ref.name}`
          : `create Service ${ref.namespace}/${ref.name} or correct the name in ${ref.where}`
      ]
    }
  }
  const ports = servicePortsOf(service)
  const described = listing(ports.map(describeServicePort))
  if (stringField(service.spec, 'type') === 'ExternalName') {
    evidence.push(
      `Service ${ref.namespace}/${ref.name} is of type ExternalName, which most controllers do not accept as a backend.`
    )
    return {
      title: `${ref.where}: Service ${ref.namespace}/${ref.name} is an ExternalName Service`,
      remedies: [
        `use a ClusterIP Service (or the controller's own external backend kind) instead of ExternalName Service ${ref.name}`
      ]
    }
  }
  if (ref.port === undefined) {
    evidence.push(
      `${ref.where} (Service ${ref.namespace}/${ref.name}) has no port; the Service has ports ${described}.`
    )
    return {
      title: `${ref.where} (Service ${ref.namespace}/${ref.name}) has no port`,
      remedies: [`set port on ${ref.where} to one of ${described}`]
    }
  }
  if (!ports.some((p) => p.port === ref.port)) {
    const target = ports.find((p) => p.targetPort === String(ref.port))
    evidence.push(
      `${ref.where} asks for port ${ref.port}, but Service ${ref.namespace}/${ref.name} has ports ${described}.`
    )
    if (target)
      evidence.push(
        `${ref.port} is the targetPort of Service port ${target.port}; a backendRef takes the Service port.`
      )
    return {
      title: `${ref.where}: Service ${ref.namespace}/${ref.name} has no port ${ref.port} (ports: ${ports.map(portLabel).join(', ')})`,
      remedies: [`set port on ${ref.where} to ${target ? target.port : `one of ${described}`}`]
    }
  }
  evidence.push(`Service ${ref.namespace}/${ref.name} exists with port ${ref.port}.`)
  return { remedies: [] }
}

/** "80/http", "8080/grpc (appProtocol kubernetes.io/h2c)": the appProtocol decides what a controller sends. */
function portLabel(port: ServicePort): string {
  const named = port.name ? `${port.port}/${port.name}` : String(port.port)
  return port.appProtocol ? `${named} (appProtocol ${port.appProtocol})` : named
}

const CORE_BACKEND = 'a core Service (group "", kind Service)'

export function explainInvalidKind(context: DiagnosisContext): Diagnosis {
  const { route, controller, finding } = context
  const rules = routeRules(route)
  const evidence: string[] = []
  const odd = namedIn(
    rules.flatMap((r) => r.backendRefs).filter((r) => !isServiceRef(r)),
    finding.message
  )
  for (const ref of odd)
    evidence.push(`${ref.where} refers to group "${ref.group}" kind ${ref.kind} (${ref.name}).`)
  const portless = rules
    .flatMap((r) => r.backendRefs)
    .filter((r) => isServiceRef(r) && r.port === undefined)
  for (const ref of portless)
    evidence.push(
      `${ref.where} (Service ${ref.name}) has no port; some controllers (Cilium) report this as InvalidKind.`
    )
  const extensions = rules.flatMap((r) => r.filters).filter((f) => f.extensionRef)
  for (const f of extensions)
    evidence.push(
      `${f.where} is an ExtensionRef to group "${f.extensionRef?.group ?? ''}" kind ${f.extensionRef?.kind ?? ''} (${f.extensionRef?.name ?? ''}).`
    )
  const supported = controller?.supports?.backendKinds
  const instead = supported
    ? `${controller?.name ?? 'The controller'} supports backend kinds ${listing(supported)}`
    : `Use ${CORE_BACKEND}`
  const remedies = [`${instead}`]
  if (portless.length > 0) remedies.push(`set port on ${listing(portless.map((r) => r.where))}`)
  if (extensions.length > 0)
    remedies.push(
      'check that the controller supports each ExtensionRef kind and that its CRD is installed'
    )
  return {
    title: odd[0]
      ? `${odd[0].where} refers to unsupported kind ${odd[0].kind}`
      : 'A reference of the Route has a kind the controller does not support',
    remediation: `${remedies.join('; ')}.`,
    evidence
  }
}

export function explainUnsupportedProtocol(context: DiagnosisContext): Diagnosis {
  const { route, world } = context
  const evidence: string[] = []
  const offending: string[] = []
  for (const ref of routeBackendRefs(route).filter(isServiceRef)) {
    const service = findService(world, ref.namespace, ref.name)
    const port = service ? servicePortsOf(service).find((p) => p.port === ref.port) : undefined
    if (port?.appProtocol) {
      evidence.push(
        `${ref.where}: Service ${ref.namespace}/${ref.name} port ${port.port} has appProtocol ${port.appProtocol}.`
      )
      offending.push(`${ref.namespace}/${ref.name} port ${port.port}`)
    }
  }
  if (offending.length === 0)
    evidence.push(
      ...unique(routeBackendRefs(route).flatMap((r) => blindSpots(world, 'services', r.namespace)))
    )
  const title = offending[0]
    ? `The appProtocol of Service ${offending[0]} is not supported for a ${route.kind}`
    : undefined
  return {
    ...(title ? { title } : {}),
    remediation:
      offending.length > 0
        ? `Change or remove appProtocol on Service ${listing(offending)}: use one the controller supports for a ${route.kind} (e.g. http, kubernetes.io/h2c, kubernetes.io/ws), or route that port with a matching Route kind.`
        : "Change the Service port's appProtocol to one the controller supports, or remove it.",
    evidence
  }
}
