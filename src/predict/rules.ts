// The attachment and reference rules run forwards: from a Route's spec and the objects around it, the
// Accepted and ResolvedRefs a conformant controller would write for one parentRef. The rules themselves
// (listener selection, admission, hostnames, grants, Service ports) are the diagnosis' own; this module
// only orders them and says which outcome is definite. When the objects cannot tell, the answer is
// unknown with why: predict must never block a correct change on a guess.
import type { Admission } from '../rules/admission.ts'
import { acceptedHostnames } from '../rules/hostnames.ts'
import { selectListeners } from '../rules/listener-selection.ts'
import { routeHostnames } from '../model/route-spec.ts'
import { checkSelector } from '../rules/selectors.ts'
import { admissionWhy } from '../wording/admission.ts'
import { describeListener } from '../wording/objects.ts'
import { listing } from '../wording/phrasing.ts'
import {
  conditionOf,
  conditionsOf,
  controllerNameOf,
  gatewayClassNameOf,
  listenersOf,
  listenerRefusal,
  listenerStatusesOf,
  namespaceLabels
} from '../rules/world.ts'
import { admissionsOf } from './attachment.ts'
import { predictResolvedRefs } from './backend-rules.ts'
import { addToDump, ready, refused, unknown } from './outcome.ts'
import type { Outcome } from './outcome.ts'

export { addToDump } from './outcome.ts'
export type { Outcome } from './outcome.ts'
import { fromSiblings } from './siblings.ts'
import { formatParentRef } from '../model/parent-ref.ts'
import {
  findListenerSet,
  isGatewayRef,
  isListenerSetRef,
  listenerSetGateway
} from '../model/owner.ts'
import type {
  Condition,
  KubeObject,
  ParentRef,
  PredictVerdict,
  RouteObject
} from '../model/types.ts'
import { isRecord, stringField } from '../model/unknown.ts'
import type { NeededKind, Objects } from './overlay.ts'

/** What predict says of one spec parentRef. */
export interface ParentPrediction {
  parentRef: ParentRef
  /** the class's controllerName, when the Gateway and its class are known */
  controllerName?: string
  /**
   * The conditions a controller would write; absent when none would write any (the parent does not
   * exist: no controller owns it) or when the parent itself cannot be judged.
   */
  accepted?: Outcome
  resolvedRefs?: Outcome
  /** the parent's own fate when no condition would be written: missing Gateway or class */
  parent?: MissingParent
  /** conditions that warn on a parent that is otherwise predicted (Contour dropping some rules) */
  warnings: { condition: string; reason: string; message: string }[]
}

/** A parent no controller will write status for (absent), or one predict cannot judge. */
export type MissingParent =
  { status: 'False'; reason: 'NoStatus'; message: string } | Extract<Outcome, { status: 'Unknown' }>

interface Parent {
  /** the object whose listeners the parentRef picks from: the Gateway or the ListenerSet */
  holder: KubeObject
  gateway: KubeObject
  /** why the rules alone leave the parent to its controller, when they do */
  undecided?: string
}

type ParentLookup = Parent | MissingParent

/** A parent object that is absent: failed only when the source lists every object of its kind. */
function absent(kind: NeededKind, what: string, objects: Objects): MissingParent {
  if (objects.complete(kind)) {
    return {
      status: 'False',
      reason: 'NoStatus',
      message: `${what} does not exist, so no controller will write status for this parentRef.`
    }
  }
  return unknown(
    `${what} is neither in the cluster source nor in the manifests; ${addToDump(kind)}.`,
    kind
  )
}

/** Whether a Gateway's allowedListeners admits a ListenerSet's namespace (from defaults to None). */
function allowsListenerSet(
  gateway: KubeObject,
  listenerSet: KubeObject,
  objects: Objects
): Outcome {
  const allowed: unknown = isRecord(gateway.spec) ? gateway.spec.allowedListeners : undefined
  const namespaces: unknown = isRecord(allowed) ? allowed.namespaces : undefined
  const from = stringField(namespaces, 'from') ?? 'None'
  const lsNamespace = listenerSet.metadata.namespace ?? ''
  const name = `Gateway ${gateway.metadata.namespace ?? ''}/${gateway.metadata.name}`
  if (from === 'All' || (from === 'Same' && lsNamespace === gateway.metadata.namespace))
    return ready('Accepted', '')
  if (from === 'Selector') {
    const namespace = objects.namespace(lsNamespace)
    if (!namespace) {
      return unknown(
        `${name} admits ListenerSets from namespaces matching a selector; namespace ${lsNamespace} is not in the source (${addToDump('Namespace')}).`,
        'Namespace'
      )
    }
    const selector: unknown = isRecord(namespaces) ? namespaces.selector : undefined
    if (checkSelector(selector, namespaceLabels(namespace)).matches) return ready('Accepted', '')
  }
  return refused(
    'NotAllowed',
    `${name} does not allow ListenerSets from namespace ${lsNamespace} (spec.allowedListeners.namespaces.from: ${from}).`
  )
}

function lookUpParent(ref: ParentRef, objects: Objects): ParentLookup {
  const refName = `${ref.kind} ${ref.namespace}/${ref.name}`
  if (isGatewayRef(ref)) {
    const gateway = objects.gateway(ref.namespace, ref.name)
    return gateway ? { holder: gateway, gateway } : absent('Gateway', refName, objects)
  }
  if (!isListenerSetRef(ref)) {
    return unknown(
      `predict judges Gateway and ListenerSet parents; a ${ref.group ? `${ref.kind}.${ref.group}` : ref.kind} parent (a mesh or vendor parent) is left to its controller.`
    )
  }
  const listenerSet = findListenerSet(objects.world, ref)
  if (!listenerSet) return absent('ListenerSet', refName, objects)

  const target = listenerSetGateway(listenerSet)
  if (!target) {
    return unknown(
      `${refName} attaches to a parent that is not a Gateway; predict cannot follow it.`
    )
  }
  const gateway = objects.gateway(target.namespace, target.name)
  if (!gateway)
    return absent(
      'Gateway',
      `Gateway ${target.namespace}/${target.name} (the parent of ${refName})`,
      objects
    )
  const allowed = allowsListenerSet(gateway, listenerSet, objects)
  if (allowed.status === 'Unknown') return allowed
  if (allowed.status === 'False') {
    // what a controller writes on the Routes of a ListenerSet it did not accept is not defined
    return unknown(
      `${allowed.message} The ListenerSet is not accepted; what its Routes get is up to the controller.`
    )
  }
  // one the cluster holds that no controller accepted (Traefik v3.6 writes none: Pending)
  const accepted = conditionOf(conditionsOf(listenerSet.status), 'Accepted')
  if (accepted !== undefined && accepted.status !== 'True') {
    const undecided = `${refName} is not accepted by a controller (Accepted=${accepted.status}${accepted.reason ? ` ${accepted.reason}` : ''}); what its Routes get is up to the controller.`
    return { holder: listenerSet, gateway, undecided }
  }
  return { holder: listenerSet, gateway }
}

/** The class behind a Gateway and its controllerName, or why the parent cannot be judged. */
function ownerOf(
  gateway: KubeObject,
  objects: Objects
): { controllerName: string; gatewayClass: KubeObject } | MissingParent {
  const className = gatewayClassNameOf(gateway)
  const gatewayName = `Gateway ${gateway.metadata.namespace ?? ''}/${gateway.metadata.name}`
  if (!className) return unknown(`${gatewayName} names no gatewayClassName.`)
  const gatewayClass = objects.gatewayClass(className)
  if (!gatewayClass)
    return absent('GatewayClass', `GatewayClass ${className} (of ${gatewayName})`, objects)
  const controllerName = controllerNameOf(gatewayClass)
  if (!controllerName) return unknown(`GatewayClass ${className} names no controllerName.`)
  const accepted = conditionOf(conditionsOf(gatewayClass.status), 'Accepted')
  if (accepted?.status === 'False') {
    return unknown(
      `GatewayClass ${className} is not accepted by its controller (${accepted.reason ?? 'Accepted=False'}); no controller may write status for Routes of its Gateways.`
    )
  }
  return { controllerName, gatewayClass }
}

/** Accepted for the listeners the parentRef selects: sectionName/port, admission, hostnames. */
function predictAccepted(
  route: RouteObject,
  ref: ParentRef,
  parent: Parent,
  objects: Objects
): Outcome {
  const name = `${ref.kind} ${ref.namespace}/${ref.name}`
  const all = listenersOf(parent.holder)
  const selected = selectListeners(all, ref)
  if (selected.length === 0) {
    const asked = [
      ref.sectionName === undefined ? undefined : `sectionName ${ref.sectionName}`,
      ref.port === undefined ? undefined : `port ${ref.port}`
    ].filter((x) => x !== undefined)
    return refused(
      'NoMatchingParent',
      all.length === 0
        ? `${name} has no listeners.`
        : `No listener of ${name} matches ${listing(asked)}; its listeners: ${listing(all.map(describeListener))}.`
    )
  }
  const { admissions, admitted, undecided } = admissionsOf(route, selected, parent.holder, objects)
  const hostnames = routeHostnames(route)
  const takesHostnames = (a: Admission): boolean =>
    hostnames.length === 0 || acceptedHostnames(a.listener.hostname, hostnames).length > 0
  const matching = admitted.filter(takesHostnames)
  if (matching.length > 0) {
    const taken = matching.map((a) => a.listener.name)
    return ready('Accepted', `Listener ${listing(taken)} of ${name} admits the ${route.kind}.`)
  }
  if (undecided.some(takesHostnames)) {
    return unknown(
      `${undecided.flatMap(admissionWhy).join(' ')} ${objects.complete('Namespace') ? `Namespace ${route.metadata.namespace} is not in the source.` : `${addToDump('Namespace')}.`}`,
      'Namespace'
    )
  }
  // listeners whose namespace is undecided fail on hostnames anyway: the Route is refused either way
  const candidates = [...admitted, ...undecided]
  if (candidates.length === 0) {
    return refused('NotAllowedByListeners', admissions.flatMap(admissionWhy).join(' '))
  }
  return refused(
    'NoMatchingListenerHostname',
    `No listener of ${name} that admits the ${route.kind} accepts its hostnames ${listing(hostnames)}: ${listing(candidates.map((a) => describeListener(a.listener)))}.`
  )
}

/**
 * A Gateway refused as ListenersNotValid, where the Gateway's status judges every listener the
 * parentRef selects one by one: the refused ones admit nothing (Traefik writes
 * NotAllowedByListeners there) and the accepted ones admit as the listener rules say. A listener
 * the status does not judge, on a Gateway refused as a whole, is the controller's to judge.
 */
function listenersJudged(accepted: Condition, parent: Parent, ref: ParentRef): boolean {
  if (accepted.reason !== 'ListenersNotValid') return false
  const selected = selectListeners(listenersOf(parent.holder), ref)
  const judged = (name: string): boolean => {
    const status = listenerStatusesOf(parent.holder).find((s) => s.name === name)
    const condition = status ? conditionOf(status.conditions, 'Accepted') : undefined
    return condition?.status === 'True' || listenerRefusal(parent.holder, name) !== undefined
  }
  return selected.length > 0 && selected.every((l) => judged(l.name))
}

export function predictParent(
  route: RouteObject,
  ref: ParentRef,
  objects: Objects
): ParentPrediction {
  const prediction: ParentPrediction = { parentRef: ref, warnings: [] }
  const parent = lookUpParent(ref, objects)
  if (!('holder' in parent)) return { ...prediction, parent }
  const owner = ownerOf(parent.gateway, objects)
  if (!('controllerName' in owner)) return { ...prediction, parent: owner }
  prediction.controllerName = owner.controllerName
  const gatewayAccepted = conditionOf(conditionsOf(parent.gateway.status), 'Accepted')
  const undecided =
    gatewayAccepted?.status === 'False' && !listenersJudged(gatewayAccepted, parent, ref)
      ? `Gateway ${parent.gateway.metadata.namespace ?? ''}/${parent.gateway.metadata.name} is not accepted by its controller (${gatewayAccepted.reason ?? 'Accepted=False'}${gatewayAccepted.message ? `: ${gatewayAccepted.message}` : ''}); what it writes on the Route is up to the controller.`
      : parent.undecided
  if (undecided !== undefined) {
    // what a controller writes there varies (Contour: InvalidGateway); the other Routes there show it
    const decided = fromSiblings(route, ref, owner.controllerName, undecided, objects.routes)
    if (decided?.kind === 'unknown') return { ...prediction, parent: unknown(undecided) }
    if (decided?.kind === 'refused') {
      const resolvedRefs = predictResolvedRefs(route, owner.controllerName, objects, parent.gateway)
      return { ...prediction, accepted: refused(decided.reason, decided.message), resolvedRefs }
    }
  }
  prediction.accepted = predictAccepted(route, ref, parent, objects)
  prediction.resolvedRefs = predictResolvedRefs(
    route,
    owner.controllerName,
    objects,
    parent.gateway
  )
  return prediction
}

/** The conditions as the report carries them. */
export function predictedConditions(prediction: ParentPrediction): Condition[] {
  const out: Condition[] = []
  for (const [type, outcome] of [
    ['Accepted', prediction.accepted],
    ['ResolvedRefs', prediction.resolvedRefs]
  ] as const) {
    if (!outcome) continue
    out.push(
      outcome.status === 'Unknown'
        ? { type, status: 'Unknown', reason: 'Unpredictable', message: outcome.why }
        : { type, status: outcome.status, reason: outcome.reason, message: outcome.message }
    )
  }
  return out
}

/** ready, failed or unknown, judged on the required condition types only. */
export function verdictOf(prediction: ParentPrediction, required: string[]): PredictVerdict {
  if (prediction.parent) return prediction.parent.status === 'Unknown' ? 'unknown' : 'failed'
  const conditions = predictedConditions(prediction).filter((c) => required.includes(c.type))
  if (conditions.some((c) => c.status === 'False')) return 'failed'
  return conditions.some((c) => c.status === 'Unknown') ? 'unknown' : 'ready'
}

/** "infra/edge#https" for messages. */
export function describeParent(ref: ParentRef, route: RouteObject): string {
  return formatParentRef(ref, route.metadata.namespace)
}
