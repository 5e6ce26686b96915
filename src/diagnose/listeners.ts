// Evidence for the attachment reasons: which listener refuses the Route and why
// (NotAllowedByListeners), which hostnames would match (NoMatchingListenerHostname), and which
// listener names and ports exist (NoMatchingParent).
import type { Diagnosis, DiagnosisContext } from './context.ts'
import { controllerLabel } from './controllers.ts'
import { acceptedHostnames, hostnameFor } from './hostnames.ts'
import {
  listenerKinds,
  protocolKinds,
  selectListeners,
  specKinds,
  takesKind
} from './listener-selection.ts'
import { nearestNames, oneOf } from './nearest.ts'
import { describeRefusals, listenerRefusal } from './refused-listeners.ts'
import type { Refusal } from './refused-listeners.ts'
import { gatewayName, lookUpGateway, lookUpListenerSet } from './parents.ts'
import { routeHostnames } from '../model/route-spec.ts'
import { checkSelector, describeSelector } from './selectors.ts'
import { capitalize, listing, unique } from './phrasing.ts'
import {
  blindSpots,
  conditionOf,
  describeListener,
  describeServicePort,
  findNamespace,
  findService,
  listenerStatusesOf,
  listenersOf,
  namespaceLabels,
  servicePortsOf
} from './world.ts'
import type { Listener } from './world.ts'
import { yamlScalar } from './yaml.ts'
import { isListenerSetRef } from '../model/owner.ts'
import type { KubeObject, ParentRef, RouteObject, World } from '../model/types.ts'
import { stringField } from '../model/unknown.ts'

export interface Admission {
  listener: Listener
  namespace: 'ok' | 'refused' | 'unknown'
  kind: 'ok' | 'refused'
  /** the reason of the listener's Accepted=False: its controller refused it, so it admits nothing */
  refusedBy?: string
  /** why the listener refuses, as sentences */
  why: string[]
  /** kubectl label arguments that would make the namespace match the listener's selector */
  labelChanges: string[]
  kinds?: string[]
}

/** Whether a listener admits a Route: namespace, kind, and its controller's own verdict on it. */
export function admission(
  listener: Listener,
  gateway: KubeObject,
  route: RouteObject,
  world: World
): Admission {
  const routeNamespace = route.metadata.namespace
  const gatewayNamespace = gateway.metadata.namespace ?? ''
  const status = listenerStatusesOf(gateway).find((s) => s.name === listener.name)
  const result: Admission = { listener, namespace: 'ok', kind: 'ok', why: [], labelChanges: [] }
  // spelled only for a why: predict admits thousands of Routes, nearly all without one
  const label = (): string => `Listener ${describeListener(listener)}`
  if (listener.from === 'Same' && routeNamespace !== gatewayNamespace) {
    result.namespace = 'refused'
    result.why.push(
      `${label()} admits Routes from namespace ${gatewayNamespace} only (from: Same); the ${route.kind} is in ${routeNamespace}.`
    )
  } else if (listener.from === 'Selector') {
    const namespace = findNamespace(world, routeNamespace)
    if (!namespace) {
      result.namespace = 'unknown'
      result.why.push(
        `${label()} admits namespaces matching ${describeSelector(listener.selector)}; the labels of namespace ${routeNamespace} could not be read.`
      )
    } else {
      const check = checkSelector(listener.selector, namespaceLabels(namespace))
      if (!check.matches) {
        result.namespace = 'refused'
        result.labelChanges = check.labelChanges
        result.why.push(
          `${label()} admits namespaces matching ${describeSelector(listener.selector)}; namespace ${routeNamespace} does not match: ${check.unmet.join('; ')}.`
        )
      }
    }
  } else if (listener.from !== 'Same' && listener.from !== 'All') {
    result.why.push(
      `${label()} has allowedRoutes.namespaces.from: ${listener.from}, which is not All, Same or Selector.`
    )
  }
  const accepted = status ? conditionOf(status.conditions, 'Accepted') : undefined
  if (accepted?.status === 'False') {
    result.refusedBy = accepted.reason ?? 'Accepted=False'
    result.why.push(
      `${label()} was refused by its controller (Accepted=False, ${result.refusedBy}${accepted.message ? `: ${accepted.message}` : ''}), so it admits no Route.`
    )
  }
  const kinds = listenerKinds(listener, status)
  if (kinds) {
    result.kinds = kinds
    if (!kinds.includes(route.kind)) {
      result.kind = 'refused'
      // a refused listener's empty supportedKinds follows from the refusal: no second cause
      if (result.refusedBy === undefined || kinds.length > 0)
        result.why.push(
          `${label()} takes ${kinds.length === 0 ? 'no Route kind' : listing(kinds)}, not ${route.kind}.`
        )
    }
  }
  return result
}

export function admits(a: Admission): boolean {
  return a.namespace !== 'refused' && a.kind === 'ok' && a.refusedBy === undefined
}

interface ParentListeners {
  ref: ParentRef
  gateway: KubeObject
  label: string
  all: Listener[]
  selected: Listener[]
}

/**
 * The parent whose listeners the parentRef picks from: a Gateway's own listeners, or a ListenerSet's
 * (a ListenerSet ref never reaches the Gateway's listeners, nor a Gateway ref the ListenerSet's). For a
 * ListenerSet, `gateway` is the ListenerSet: its namespace is the one `from: Same` admits.
 */
function gatewayListeners(context: DiagnosisContext): ParentListeners | Diagnosis {
  const ref = context.parent?.parentRef
  if (!ref) return { evidence: [] }
  const found = isListenerSetRef(ref)
    ? lookUpListenerSet(ref, context.world)
    : ref.kind === 'Gateway'
      ? lookUpGateway(ref, context.world)
      : undefined
  if (!found) {
    return { evidence: [`The parent is a ${ref.kind}; it has no Gateway listeners to check.`] }
  }
  if ('diagnosis' in found) return found.diagnosis
  const all = listenersOf(found.gateway)
  const label = `${ref.kind} ${gatewayName(ref)}`
  return { ref, gateway: found.gateway, label, all, selected: selectListeners(all, ref) }
}

/** The selected listeners the controller refused, with its condition and the fix for its reason. */
function refusalsOf(
  listeners: Listener[],
  gateway: KubeObject,
  context: DiagnosisContext
): Refusal[] {
  const statuses = listenerStatusesOf(gateway)
  const controllerName =
    context.finding.controllerName ?? context.parent?.controllerName ?? undefined
  return listeners.flatMap((l) => {
    const refusal = listenerRefusal(
      l,
      statuses.find((s) => s.name === l.name),
      context.route.kind,
      controllerName
    )
    return refusal ? [refusal] : []
  })
}

function plural(items: unknown[], one: string, many: string): string {
  return items.length > 1 ? many : one
}

/** A parentRef's port narrows sectionName too: moving to a listener on another port moves the port. */
function portToo(ref: ParentRef, listener: Listener | undefined): string {
  if (ref.port === undefined || listener?.port === ref.port) return ''
  return listener?.port === undefined ? ' and drop port' : ` and port: ${listener.port}`
}

/** A listener that the parentRef does not select but that would take the Route: "set sectionName". */
function alternatives(
  all: Listener[],
  selected: Listener[],
  accept: (l: Listener) => boolean
): Listener[] {
  const chosen = new Set(selected.map((l) => l.name))
  return all.filter((l) => !chosen.has(l.name) && accept(l))
}

export function explainNotAllowedByListeners(context: DiagnosisContext): Diagnosis {
  const found = gatewayListeners(context)
  if (!('gateway' in found)) return found
  const { route, world } = context
  const admissions = found.selected.map((l) => admission(l, found.gateway, route, world))
  const refusals = refusalsOf(found.selected, found.gateway, context)
  const refused = new Set(refusals.map((r) => r.listener.name))
  const namespace = namespaceRemedies(admissions, found.label, route, world)
  // the controller's own fixes come first: a listener it refused admits nothing until they are made
  const remedies = [
    ...unique(refusals.map((r) => r.fix)),
    ...namespace.remedies,
    ...kindRemedies(admissions, refused, route),
    ...otherListenerRemedies(found, route, world)
  ]
  const diagnosis: Diagnosis = {
    title: notAllowedTitle(found.label, admissions, refusals, context),
    evidence: notAllowedEvidence(found, admissions, route, world)
  }
  if (remedies.length > 0) diagnosis.remediation = `${capitalize(remedies.join('; or '))}.`
  if (namespace.fix) diagnosis.fix = namespace.fix
  return diagnosis
}

/**
 * Why each selected listener refuses, then what that leaves unexplained: no listener selected, or
 * listeners whose spec admits the Route although the controller says they do not.
 */
function notAllowedEvidence(
  found: ParentListeners,
  admissions: Admission[],
  route: RouteObject,
  world: World
): string[] {
  const evidence = admissions.flatMap((a) => a.why)
  const unreadNamespace = admissions.some((a) => a.namespace === 'unknown')
  if (unreadNamespace) evidence.push(...blindSpots(world, 'namespaces'))
  if (found.selected.length === 0)
    evidence.push(`The parentRef selects no listener of ${found.label}.`)
  else if (admissions.every(admits) && !unreadNamespace) {
    evidence.push(
      `By their spec, the selected listeners (${listing(found.selected.map((l) => l.name))}) admit this ${route.kind}: the condition may predate a Gateway or Namespace change, or the controller also refuses listeners that are not ready (see the listener conditions).`
    )
  }
  return evidence
}

/**
 * For listeners that take the Route's kind but not its namespace: label the namespace to match their
 * selector, or change the listener to admit the namespace (with the YAML for that change).
 */
function namespaceRemedies(
  admissions: Admission[],
  gateway: string,
  route: RouteObject,
  world: World
): { remedies: string[]; fix?: string } {
  const routeNamespace = route.metadata.namespace
  const relabel = admissions.filter(
    (a) => a.namespace === 'refused' && a.kind === 'ok' && a.labelChanges.length > 0
  )
  const labelling = labelNamespaceRemedy(
    unique(relabel.flatMap((a) => a.labelChanges)),
    routeNamespace,
    world
  )
  const remedies = labelling === undefined ? [] : [labelling]
  // from: Same has no selector a label could match: only the listener can change
  const same = admissions.find(
    (a) => a.namespace === 'refused' && a.kind === 'ok' && a.listener.from === 'Same'
  )
  if (!same && relabel.length === 0) return { remedies }
  const listener = (same ?? relabel[0])?.listener.name ?? ''
  remedies.push(
    `change listener ${listener} of ${gateway} to admit namespace ${routeNamespace} (allowedRoutes.namespaces.from: Selector on kubernetes.io/metadata.name, or All)`
  )
  return { remedies, fix: admitNamespaceFix(gateway, listener, routeNamespace) }
}

/** The kubectl label command that makes the namespace match, when labels can make it match. */
function labelNamespaceRemedy(
  labelChanges: string[],
  routeNamespace: string,
  world: World
): string | undefined {
  // Kubernetes sets kubernetes.io/metadata.name to the namespace's name and keeps it so: no label
  // command can change it, only the listener's selector can
  if (
    labelChanges.length === 0 ||
    labelChanges.some((c) => c.startsWith('kubernetes.io/metadata.name'))
  )
    return undefined
  // kubectl label refuses to change a label the namespace already has unless told to overwrite
  const overwrite = labelChanges.some(
    (c) =>
      !c.endsWith('-') &&
      findNamespace(world, routeNamespace)?.metadata.labels?.[c.split('=')[0] ?? ''] !== undefined
  )
  return `label the namespace: kubectl label namespace ${routeNamespace} ${labelChanges.join(' ')}${overwrite ? ' --overwrite' : ''}`
}

/** A selector on kubernetes.io/metadata.name admits exactly the Route's namespace, where All admits every one. */
function admitNamespaceFix(gateway: string, listener: string, routeNamespace: string): string {
  return [
    `# ${gateway}, spec.listeners[name=${listener}]`,
    'allowedRoutes:',
    '  namespaces:',
    '    from: Selector',
    '    selector:',
    '      matchLabels:',
    `        kubernetes.io/metadata.name: ${yamlScalar(routeNamespace)}`,
    ''
  ].join('\n')
}

/** For each listener that does not take the Route's kind, the remedy for whichever refuses it. */
function kindRemedies(admissions: Admission[], refused: Set<string>, route: RouteObject): string[] {
  // a refused listener's own condition explains its supportedKinds: no "use another controller"
  return admissions
    .filter((a) => a.kind === 'refused' && !refused.has(a.listener.name))
    .map((a) => kindRemedy(a, route.kind))
}

/**
 * The remedy depends on what refuses the kind: a protocol that cannot carry it (no allowedRoutes change
 * helps), the controller's supportedKinds though the spec admits it, or the listener's allowedRoutes.kinds.
 */
function kindRemedy(a: Admission, kind: string): string {
  const protocolSupports = protocolKinds(a.listener.protocol)?.includes(kind) ?? false
  if (!protocolSupports)
    return `attach the ${kind} to a listener whose protocol supports it (listener ${a.listener.name} is ${a.listener.protocol ?? 'of an unknown protocol'})`
  // the spec's kinds admit the Route: the refusal is the controller's supportedKinds
  const specAdmits = specKinds(a.listener)?.includes(kind) ?? true
  if (specAdmits)
    return `attach the ${kind} to a listener that takes it, or use a controller that supports ${kind}: the controller lists ${a.kinds?.length ? `only ${listing(a.kinds)}` : 'no Route kind'} in status.listeners[name=${a.listener.name}].supportedKinds, though ${a.listener.protocol ?? ''} carries ${kind} by the spec`
  return `add kind ${kind} to allowedRoutes.kinds of listener ${a.listener.name}`
}

/** A listener the parentRef leaves out that would take the Route: move the parentRef to it. */
function otherListenerRemedies(found: ParentListeners, route: RouteObject, world: World): string[] {
  const { ref, gateway } = found
  const other = alternatives(found.all, found.selected, (l) =>
    admits(admission(l, gateway, route, world))
  )
  // without sectionName or port the parentRef already selects every listener: none to move to
  if (other.length === 0 || (ref.sectionName === undefined && ref.port === undefined)) return []
  return [
    `attach to listener ${oneOf(other.map((l) => l.name))} instead, which admits this ${route.kind} (set sectionName: ${other[0]?.name ?? ''}${portToo(ref, other[0])} in the parentRef)`
  ]
}

/**
 * The causes by listener: the controller's refusals, then namespace, then kind. A listener is named
 * for its namespace where that refuses it, else for its kind: never for a namespace it admits.
 */
function notAllowedTitle(
  gateway: string,
  admissions: Admission[],
  refusals: Refusal[],
  context: DiagnosisContext
): string {
  const { route } = context
  const refused = new Set(refusals.map((r) => r.listener.name))
  const refusing = admissions.filter((a) => !admits(a) && !refused.has(a.listener.name))
  const byNamespace = refusing.filter((a) => a.namespace !== 'ok').map((a) => a.listener.name)
  const byKind = refusing.filter((a) => a.namespace === 'ok').map((a) => a.listener.name)
  const does = (names: string[]): string =>
    `${plural(names, 'listener', 'listeners')} ${listing(names)} ${names.length > 1 ? 'do' : 'does'}`
  const controllerName =
    context.finding.controllerName ?? context.parent?.controllerName ?? undefined
  const causes = [
    refusals.length > 0 ? describeRefusals(refusals, controllerName) : undefined,
    byNamespace.length > 0
      ? `${does(byNamespace)} not allow this ${route.kind} from namespace ${route.metadata.namespace}`
      : undefined,
    byKind.length > 0 ? `${does(byKind)} not take kind ${route.kind}` : undefined
  ].filter((c) => c !== undefined)
  return causes.length > 0
    ? `${gateway}: ${causes.join('; and ')}`
    : `${gateway} does not allow this ${route.kind}`
}

/**
 * What route-gate read that says a NotAllowedByListeners is not true: a listener the parentRef selects
 * admits the Route's namespace and kind by its spec. Empty when nothing contradicts it.
 */
export function refuteNotAllowedByListeners(context: DiagnosisContext): string[] {
  const found = gatewayListeners(context)
  if (!('gateway' in found)) return []
  const { route, world } = context
  return found.selected
    .map((l) => admission(l, found.gateway, route, world))
    .filter((a) => admits(a) && a.namespace === 'ok' && a.why.length === 0)
    .map(
      (a) =>
        `By its spec, listener ${describeListener(a.listener)} of Gateway ${gatewayName(found.ref)} admits this ${route.kind} from namespace ${route.metadata.namespace}.`
    )
}

export function explainNoMatchingListenerHostname(context: DiagnosisContext): Diagnosis {
  const found = gatewayListeners(context)
  if (!('gateway' in found)) return found
  const { gateway, all, selected } = found
  const { route, world } = context
  const name = found.label
  const hostnames = routeHostnames(route)
  const allowed = selected.filter((l) => admits(admission(l, gateway, route, world)))
  const candidates = allowed.length > 0 ? allowed : selected
  const evidence = [
    hostnames.length === 0
      ? `The ${route.kind} sets no hostnames.`
      : `The ${route.kind}'s hostnames: ${listing(hostnames)}.`
  ]
  const suggestions: string[] = []
  // a Route without hostnames takes the listener's hostname, whatever it is
  const takes = (l: Listener): boolean =>
    hostnames.length === 0 || acceptedHostnames(l.hostname, hostnames).length > 0
  for (const l of candidates) {
    if (l.hostname === undefined) {
      evidence.push(`Listener ${describeListener(l)} sets no hostname, so it matches any hostname.`)
      continue
    }
    if (!takes(l)) {
      evidence.push(
        `Listener ${describeListener(l)} accepts ${l.hostname} only; none of the Route's hostnames match it.`
      )
      suggestions.push(hostnameFor(l.hostname, hostnames[0]))
    }
  }
  const intersecting = candidates.filter(takes)
  if (intersecting.length > 0)
    return specDisagrees(context, name, hostnames, intersecting, evidence)
  const remedies: string[] = []
  const withHostname = candidates.filter((l) => l.hostname !== undefined)
  if (suggestions.length > 0) {
    remedies.push(
      `add a hostname that listener ${listing(withHostname.map((l) => l.name))} accepts to spec.hostnames, e.g. ${listing(unique(suggestions))}`
    )
    if (hostnames[0] !== undefined)
      remedies.push(`change the listener hostname to cover ${hostnames[0]}`)
  }
  const other = alternatives(
    all,
    selected,
    (l) =>
      admits(admission(l, gateway, route, world)) &&
      acceptedHostnames(l.hostname, hostnames).length > 0
  )
  for (const l of other) {
    evidence.push(
      `Listener ${describeListener(l)} would accept ${listing(acceptedHostnames(l.hostname, hostnames))}.`
    )
  }
  if (other[0] !== undefined)
    remedies.push(
      `attach to listener ${other[0].name} instead (set sectionName: ${other[0].name}${portToo(found.ref, other[0])} in the parentRef)`
    )
  const diagnosis: Diagnosis = {
    title: `No listener of ${name} matches the hostnames ${hostnames.length > 0 ? listing(hostnames) : '(none)'}`,
    evidence
  }
  if (remedies.length > 0) diagnosis.remediation = `${capitalize(remedies.join('; or '))}.`
  return diagnosis
}

/**
 * By the spec's intersection rules a selected listener takes the Route's hostnames, yet the controller
 * says none matches: say that the two readings disagree, never "change the listener hostname".
 */
function specDisagrees(
  context: DiagnosisContext,
  gateway: string,
  hostnames: string[],
  intersecting: Listener[],
  evidence: string[]
): Diagnosis {
  const who = controllerLabel(context.finding.controllerName ?? context.parent?.controllerName)
  const described = intersecting.map(
    (l) =>
      `listener ${l.name} (${l.hostname === undefined ? 'no hostname: any' : `hostname ${l.hostname}`})`
  )
  for (const l of intersecting) {
    const taken = acceptedHostnames(l.hostname, hostnames)
    evidence.push(
      `By the Gateway API rules, listener ${describeListener(l)} takes ${hostnames.length > 0 ? listing(taken) : 'the Route, which sets no hostnames'}.`
    )
  }
  const routeNames = hostnames.length > 0 ? listing(hostnames) : '(none: any hostname)'
  return {
    title: `The hostnames ${routeNames} intersect ${listing(described)} of ${gateway} by the spec; ${who} does not accept them`,
    remediation: `route-gate's reading and the controller's disagree: by the spec's hostname rules ${listing(described)} accepts ${routeNames}, but ${who} reports NoMatchingListenerHostname. Read its message and documentation on hostname matching (some implementations take only exact or narrower hostnames), and check whether the status predates a change of the Gateway or the Route.`,
    evidence
  }
}

export function explainNoMatchingParent(context: DiagnosisContext): Diagnosis {
  const ref = context.parent?.parentRef
  if (!ref) return { evidence: [] }
  if (ref.kind === 'Service') return serviceParentPorts(ref, context.world)
  const found = gatewayListeners(context)
  if (!('gateway' in found)) return found
  const { all } = found
  const name = found.label
  const evidence = [
    all.length === 0
      ? `${name} has no listeners.`
      : `${name} has listeners: ${listing(all.map(describeListener))}.`
  ]
  // the parentRef names a listener that exists, which its controller refused: that is the cause
  const refusals = refusalsOf(found.selected, found.gateway, context)
  if (refusals.length > 0) {
    const controllerName =
      context.finding.controllerName ?? context.parent?.controllerName ?? undefined
    return {
      title: `${name}: ${describeRefusals(refusals, controllerName)}`,
      remediation: `${capitalize(unique(refusals.map((r) => r.fix)).join('; and '))}.`,
      evidence
    }
  }
  const remedies: string[] = []
  const byName =
    ref.sectionName === undefined ? undefined : all.find((l) => l.name === ref.sectionName)
  if (ref.sectionName !== undefined && !byName) {
    const statuses = listenerStatusesOf(found.gateway)
    const compatible = all.filter((l) => takesKind(l, statuses, context.route.kind))
    const nearest = nearestNames(
      ref.sectionName,
      (compatible.length > 0 ? compatible : all).map((l) => l.name)
    )
    evidence.push(`No listener is named ${ref.sectionName}.`)
    remedies.push(
      nearest.length > 0
        ? `set sectionName to ${oneOf(nearest)} (the nearest listener name)`
        : `set sectionName to one of the listener names: ${listing(all.map((l) => l.name))}`
    )
  }
  if (ref.port !== undefined) {
    const ports = unique(all.flatMap((l) => (l.port === undefined ? [] : [l.port])))
    if (byName && byName.port !== ref.port) {
      evidence.push(
        `Listener ${byName.name} listens on port ${byName.port ?? '(none)'}, not ${ref.port}.`
      )
      remedies.push(`set port to ${byName.port ?? ''} or drop it`)
    } else if (!ports.includes(ref.port)) {
      evidence.push(`No listener listens on port ${ref.port}.`)
      remedies.push(`set port to one of the listener ports: ${listing(ports.map(String))}`)
    }
  }
  const diagnosis: Diagnosis = {
    title: `The parentRef ${[ref.sectionName === undefined ? '' : `sectionName ${ref.sectionName}`, ref.port === undefined ? '' : `port ${ref.port}`].filter(Boolean).join(' and ') || 'to ' + name} matches no listener of ${name}`,
    evidence
  }
  if (remedies.length > 0) diagnosis.remediation = `${capitalize(remedies.join('; and '))}.`
  return diagnosis
}

function serviceParentPorts(ref: ParentRef, world: World): Diagnosis {
  const service = findService(world, ref.namespace, ref.name)
  const name = gatewayName(ref)
  if (!service) {
    const blind = blindSpots(world, 'services', ref.namespace)
    if (blind.length > 0) return { evidence: blind }
    const nearest = nearestNames(
      ref.name,
      world.services
        .filter((s) => s.metadata.namespace === ref.namespace)
        .map((s) => s.metadata.name)
    )
    return {
      title: `Service ${name} named by the parentRef does not exist`,
      remediation:
        nearest.length > 0
          ? `Set the parentRef name to ${oneOf(nearest)} (the nearest Service), or create Service ${name}.`
          : `Create Service ${name} or fix the parentRef name.`,
      evidence: [`Service ${name} does not exist.`]
    }
  }
  const ports = servicePortsOf(service)
  const evidence = [`Service ${name} has ports ${listing(ports.map(describeServicePort))}.`]
  if (stringField(service.spec, 'clusterIP') === 'None') {
    evidence.push(
      `Service ${name} is headless (clusterIP: None); meshes accept only ClusterIP Services as parents.`
    )
  }
  const remedies: string[] = []
  if (ref.sectionName !== undefined && !ports.some((p) => p.name === ref.sectionName)) {
    const names = ports.flatMap((p) => (p.name ? [p.name] : []))
    remedies.push(
      `set sectionName to a port name of the Service${names.length > 0 ? `: ${listing(names)}` : ' (its ports have no names)'}`
    )
  }
  if (ref.port !== undefined && !ports.some((p) => p.port === ref.port)) {
    remedies.push(`set port to one of ${listing(ports.map((p) => String(p.port)))}`)
  }
  const diagnosis: Diagnosis = {
    title: `The parentRef matches no port of Service ${name}`,
    evidence
  }
  if (remedies.length > 0) diagnosis.remediation = `${capitalize(remedies.join('; and '))}.`
  return diagnosis
}
