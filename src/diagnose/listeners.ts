// Evidence for NotAllowedByListeners: which listener refuses the Route and why, and what to change:
// the namespace's labels, the listener, or another listener to attach to.
import type { Diagnosis, DiagnosisContext } from './context.ts'

import { admission, admits } from '../rules/admission.ts'

import type { Admission } from '../rules/admission.ts'

import { admissionWhy } from '../wording/admission.ts'
import { protocolKinds, specKinds } from '../rules/listener-selection.ts'
import { oneOf } from '../model/nearest.ts'
import { describeRefusals } from '../wording/refusals.ts'
import type { Refusal } from '../rules/refused-listeners.ts'
import { gatewayName } from './parents.ts'
import { capitalize, listing, unique } from '../wording/phrasing.ts'
import { blindSpots, describeListener } from '../wording/objects.ts'
import { findNamespace } from '../rules/world.ts'
import { NAMESPACE_NAME_LABEL, namespacesNamedBy } from '../rules/selectors.ts'
import { commandFix, patchFix } from './fixes.ts'
import { arrayField, isRecord } from '../model/unknown.ts'
import type { Fix, KubeObject, RouteObject, World } from '../model/types.ts'

import {
  alternatives,
  gatewayListeners,
  plural,
  portToo,
  refusalFixes,
  refusalsOf,
  writerOf
} from './parent-listeners.ts'

import type { ParentListeners } from './parent-listeners.ts'

export function explainNotAllowedByListeners(context: DiagnosisContext): Diagnosis {
  const found = gatewayListeners(context)
  if (!('gateway' in found)) return found
  const { route, world } = context
  const admissions = found.selected.map((l) => admission(l, found.gateway, route, world))
  const refusals = refusalsOf(found.selected, found.gateway, context)
  const refused = new Set(refusals.map((r) => r.listener.name))
  const namespace = namespaceRemedies(admissions, found, route, world)
  // the controller's own fixes come first: a listener it refused admits nothing until they are made
  const remedies = [
    ...refusalFixes(refusals, context),
    ...namespace.remedies,
    ...kindRemedies(admissions, refused, route),
    ...otherListenerRemedies(found, route, world)
  ]
  const diagnosis: Diagnosis = {
    title: notAllowedTitle(found.label, admissions, refusals, context),
    evidence: notAllowedEvidence(found, admissions, route, world)
  }
  if (remedies.length > 0) diagnosis.remediation = `${capitalize(remedies.join('; or '))}.`
  if (namespace.fixes.length > 0) diagnosis.fixes = namespace.fixes
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
  const evidence = admissions.flatMap(admissionWhy)
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
 * selector, or change the listener to admit the namespace too. The listener's YAML is offered only
 * where it keeps every namespace the listener admits today (from: Same, or a selector by name): any
 * other selector cannot gain one namespace without a rewrite, and a rewrite detaches Routes.
 */
function namespaceRemedies(
  admissions: Admission[],
  found: ParentListeners,
  route: RouteObject,
  world: World
): { remedies: string[]; fixes: Fix[] } {
  const routeNamespace = route.metadata.namespace
  const relabel = admissions.filter(
    (a) => a.namespace === 'refused' && a.kind === 'ok' && a.labelChanges.length > 0
  )
  const labels = unique(relabel.flatMap((a) => a.labelChanges))
  const labelling = labelNamespaceRemedy(labels, routeNamespace, world)
  // the command lives in the fix: where the pull request defines the namespace, it is its manifest
  const remedies = labelling === undefined ? [] : [labelWords(labels, routeNamespace)]
  const fixes = labelling === undefined ? [] : [labelFix(labels, routeNamespace, labelling, world)]
  // from: Same has no selector a label could match: only the listener can change
  const same = admissions.find(
    (a) => a.namespace === 'refused' && a.kind === 'ok' && a.listener.from === 'Same'
  )
  const listener = (same ?? relabel[0])?.listener
  if (!listener) return { remedies, fixes }
  const today =
    listener.from === 'Same'
      ? [found.gateway.metadata.namespace ?? '']
      : namespacesNamedBy(listener.selector)
  const which = `listener ${listener.name} of ${found.label}`
  if (today !== undefined) {
    remedies.push(
      `change ${which} to admit namespace ${routeNamespace} beside the ${plural(today, 'namespace', 'namespaces')} ${listing(today)} it admits today (the YAML below admits both by name)`
    )
    fixes.push(patchFix(admittingByName(found.gateway, listener.name, [...today, routeNamespace])))
    return { remedies, fixes }
  }
  if (labelling === undefined)
    remedies.push(
      `change the selector of ${which} so that it also matches namespace ${routeNamespace}; a new selector replaces the old one, so first list the namespaces the old one admits, or their Routes lose the listener`
    )
  return { remedies, fixes }
}
/** The kubectl label command that makes the namespace match, when labels can make it match. */
function labelNamespaceRemedy(
  labelChanges: string[],
  routeNamespace: string,
  world: World
): string | undefined {
  // Kubernetes sets kubernetes.io/metadata.name to the namespace's name and keeps it so: no label
  // command can change it, only the listener's selector can
  if (labelChanges.length === 0 || labelChanges.some((c) => c.startsWith(NAMESPACE_NAME_LABEL)))
    return undefined
  // kubectl label refuses to change a label the namespace already has unless told to overwrite
  const overwrite = labelChanges.some(
    (c) =>
      !c.endsWith('-') &&
      findNamespace(world, routeNamespace)?.metadata.labels?.[c.split('=')[0] ?? ''] !== undefined
  )
  return `kubectl label namespace ${routeNamespace} ${labelChanges.join(' ')}${overwrite ? ' --overwrite' : ''}`
}

/** "label namespace shop team=web, without legacy (the fix below)": what to change, not how. */
function labelWords(changes: string[], name: string): string {
  const words = changes.map((c) => (c.endsWith('-') ? `without ${c.slice(0, -1)}` : c))
  return `label namespace ${name} ${words.join(', ')} (the fix below)`
}

/** The Namespace with its labels changed ("key=value" sets, "key-" removes), or the command alone. */
function labelFix(changes: string[], name: string, command: string, world: World): Fix {
  const before = findNamespace(world, name)
  if (!before) return commandFix({ apiVersion: 'v1', kind: 'Namespace', name }, command)
  const labels: Record<string, string> = { ...before.metadata.labels }
  for (const change of changes) {
    if (change.endsWith('-')) delete labels[change.slice(0, -1)]
    else {
      const at = change.indexOf('=')
      labels[change.slice(0, at)] = change.slice(at + 1)
    }
  }
  return patchFix({ ...before, metadata: { ...before.metadata, labels } }, command)
}

/**
 * The listener's holder with that listener admitting `namespaces` by kubernetes.io/metadata.name,
 * which Kubernetes keeps equal to each namespace's name; its allowedRoutes.kinds stay as they are.
 */
function admittingByName(holder: KubeObject, listener: string, namespaces: string[]): KubeObject {
  const spec = isRecord(holder.spec) ? holder.spec : {}
  const listeners = (arrayField(spec, 'listeners') ?? []).map((l) => {
    if (!isRecord(l) || l.name !== listener) return l
    const allowed = isRecord(l.allowedRoutes) ? l.allowedRoutes : {}
    const selector = {
      matchExpressions: [{ key: NAMESPACE_NAME_LABEL, operator: 'In', values: unique(namespaces) }]
    }
    return { ...l, allowedRoutes: { ...allowed, namespaces: { from: 'Selector', selector } } }
  })
  return { ...holder, spec: { ...spec, listeners } }
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
  const causes = [
    refusals.length > 0 ? describeRefusals(refusals, writerOf(context)) : undefined,
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
    .filter((a) => admits(a) && a.namespace === 'ok' && a.causes.length === 0)
    .map(
      (a) =>
        `By its spec, listener ${describeListener(a.listener)} of Gateway ${gatewayName(found.ref)} admits this ${route.kind} from namespace ${route.metadata.namespace}.`
    )
}
