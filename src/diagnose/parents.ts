// The parent behind a parentRef: whether it exists, its class and controller, its health, and why no
// controller may have written status for it (NoStatus).
import { controllerLabel } from '../wording/controllers.ts'
import type { Diagnosis, DiagnosisContext } from './context.ts'
import { nearestNames, oneOf } from '../model/nearest.ts'
import { nameIndexIn, objectsIn, objectsNamed } from '../model/object-index.ts'
import { capitalize, describeCondition, listing } from '../wording/phrasing.ts'
import { blindSpots } from '../wording/objects.ts'
import {
  canSee,
  conditionOf,
  controllerNameOf,
  findGateway,
  findGatewayClass,
  findListenerSet,
  findService,
  gatewayClassNameOf,
  listenerStatusesOf,
  listenersOf,
  namesIn,
  conditionsOf
} from '../rules/world.ts'
import { selectListeners } from '../rules/listener-selection.ts'
import { GATEWAY_GROUP } from '../model/types.ts'
import type { Fix, KubeObject, ParentRef, RouteObject, World } from '../model/types.ts'
import { patchFix } from './fixes.ts'
import { arrayField, isRecord } from '../model/unknown.ts'

export type GatewayLookup = { gateway: KubeObject } | { diagnosis: Diagnosis }

export function gatewayName(ref: { namespace: string; name: string }): string {
  return `${ref.namespace}/${ref.name}`
}

/** The Gateway a parentRef names, or a diagnosis of its absence with the names that do exist. */
export function lookUpGateway(ref: ParentRef, world: World): GatewayLookup {
  const gateway = findGateway(world, ref.namespace, ref.name)
  if (gateway) return { gateway }
  const blind = blindSpots(world, 'gateways', ref.namespace)
  if (blind.length > 0) {
    return {
      diagnosis: {
        evidence: [...blind, `Whether Gateway ${gatewayName(ref)} exists could not be checked.`]
      }
    }
  }
  return { diagnosis: missingObject('Gateway', ref, world.gateways) }
}

/** The ListenerSet (or XListenerSet) a parentRef names, or a diagnosis of its absence. */
export function lookUpListenerSet(ref: ParentRef, world: World): GatewayLookup {
  const listenerSet = findListenerSet(world, ref)
  if (listenerSet) return { gateway: listenerSet }
  const blind = blindSpots(world, 'listenersets', ref.namespace)
  if (blind.length > 0) {
    return {
      diagnosis: {
        evidence: [...blind, `Whether ${ref.kind} ${gatewayName(ref)} exists could not be checked.`]
      }
    }
  }
  const sameKind = (world.listenerSets ?? []).filter((o) => o.kind === ref.kind)
  return { diagnosis: missingObject(ref.kind, ref, sameKind) }
}

function missingObject(kind: string, ref: ParentRef, objects: KubeObject[]): Diagnosis {
  const inNamespace = objectsIn(objects, ref.namespace)
  const elsewhere = objectsNamed(objects, ref.name)
    .filter((o) => o.metadata.namespace !== ref.namespace)
    .map((o) => o.metadata.namespace ?? '')
  const nearest = nameIndexIn(objects, ref.namespace).nearest(ref.name)
  const evidence = [`${kind} ${gatewayName(ref)} does not exist.`]
  evidence.push(
    inNamespace.length === 0
      ? `There is no ${kind} in namespace ${ref.namespace}.`
      : `${kind}s in namespace ${ref.namespace}: ${listing(namesIn(inNamespace.slice(0, 10)))}.`
  )
  for (const namespace of elsewhere)
    evidence.push(`A ${kind} named ${ref.name} exists in namespace ${namespace}.`)
  const remedies: string[] = []
  if (elsewhere[0] !== undefined) remedies.push(`set the parentRef namespace to "${elsewhere[0]}"`)
  if (nearest.length > 0)
    remedies.push(`set the parentRef name to ${oneOf(nearest)} (the nearest existing name)`)
  remedies.push(`create ${kind} ${gatewayName(ref)}`)
  return {
    title: `${kind} ${gatewayName(ref)} named by the parentRef does not exist`,
    remediation: `${capitalize(remedies.join(', or '))}.`,
    evidence
  }
}

/** Whether any controller has written a Gateway's status: the CRD default is Pending without observedGeneration. */
function statusWritten(gateway: KubeObject): boolean {
  return conditionsOf(gateway.status).some(
    (c) => c.observedGeneration !== undefined || (c.reason !== undefined && c.reason !== 'Pending')
  )
}

/**
 * Parent health as context for any problem (and a warning on its own when the Route looks fine):
 * Gateway not Accepted or not Programmed, selected listeners Conflicted or not Accepted/Programmed,
 * class not Accepted.
 */
export function parentHealth(ref: ParentRef, world: World): string[] {
  if (ref.kind !== 'Gateway' || ref.group !== GATEWAY_GROUP) return []
  const gateway = findGateway(world, ref.namespace, ref.name)
  if (!gateway) return []
  const lines: string[] = []
  const name = gatewayName(ref)
  const conditions = conditionsOf(gateway.status)
  const accepted = conditionOf(conditions, 'Accepted')
  if (accepted && accepted.status !== 'True')
    lines.push(`Gateway ${name} is not Accepted: ${describeCondition(accepted)}.`)
  const programmed = conditionOf(conditions, 'Programmed')
  if (programmed && programmed.status !== 'True')
    lines.push(`Gateway ${name} is not Programmed: ${describeCondition(programmed)}.`)
  const selected = new Set(selectListeners(listenersOf(gateway), ref).map((l) => l.name))
  for (const status of listenerStatusesOf(gateway)) {
    if (!selected.has(status.name)) continue
    const conflicted = conditionOf(status.conditions, 'Conflicted')
    if (conflicted?.status === 'True')
      lines.push(
        `Listener ${status.name} of Gateway ${name} is Conflicted: ${describeCondition(conflicted)}.`
      )
    for (const type of ['Accepted', 'Programmed']) {
      const c = conditionOf(status.conditions, type)
      if (c && c.status !== 'True')
        lines.push(
          `Listener ${status.name} of Gateway ${name} is not ${type}: ${describeCondition(c)}.`
        )
    }
  }
  const className = gatewayClassNameOf(gateway)
  const gatewayClass = className ? findGatewayClass(world, className) : undefined
  if (gatewayClass) {
    const classAccepted = conditionOf(conditionsOf(gatewayClass.status), 'Accepted')
    // Some controllers never write class status (Contour's static provisioning leaves it
    // Unknown/Pending); a Gateway the controller accepted shows it runs, so only a rejection counts then.
    const gatewayAccepted = accepted?.status === 'True'
    if (
      classAccepted &&
      (classAccepted.status === 'False' || (classAccepted.status !== 'True' && !gatewayAccepted))
    ) {
      lines.push(`GatewayClass ${className} is not Accepted: ${describeCondition(classAccepted)}.`)
    }
  }
  return lines
}

export function explainNoStatus(context: DiagnosisContext): Diagnosis {
  const ref = context.parent?.parentRef
  if (!ref) return { evidence: [] }
  const unknownOwner = ownerBlindSpots(ref, context.world)
  if (unknownOwner) return ownerCannotBeTold(context, ref, unknownOwner)
  const others = (context.parent?.otherControllers ?? []).map(
    (o) =>
      `${controllerLabel(o.controllerName)} wrote an entry for this parentRef, but it does not own the parent.`
  )
  const diagnosis =
    ref.kind === 'Service'
      ? serviceParent(ref, context.world, context.route)
      : ref.kind === 'Gateway'
        ? gatewayParent(context, ref)
        : { evidence: [] }
  return { ...diagnosis, evidence: [...diagnosis.evidence, ...others] }
}

/**
 * Why the owner of a Gateway parent cannot be known: the Gateways, or the GatewayClass the Gateway
 * names, are not in what was read. Undefined when the owner can be looked up.
 */
function ownerBlindSpots(
  ref: ParentRef,
  world: World
): { missing: string[]; blind: string[] } | undefined {
  if (ref.kind !== 'Gateway' || ref.group !== GATEWAY_GROUP) return undefined
  const gateway = findGateway(world, ref.namespace, ref.name)
  if (!gateway) {
    const blind = blindSpots(world, 'gateways', ref.namespace)
    return blind.length > 0 ? { missing: ['Gateways', 'GatewayClasses'], blind } : undefined
  }
  const className = gatewayClassNameOf(gateway) ?? ''
  if (findGatewayClass(world, className)) return undefined
  const blind = blindSpots(world, 'gatewayclasses')
  return blind.length > 0 ? { missing: ['GatewayClasses'], blind } : undefined
}

/** Say only what is known: without the Gateway and its class, nobody can tell who should report. */
function ownerCannotBeTold(
  context: DiagnosisContext,
  ref: ParentRef,
  unknown: { missing: string[]; blind: string[] }
): Diagnosis {
  const name = gatewayName(ref)
  const { world } = context
  const fromDump = world.partial === true && world.unreadable.length === 0
  const others = (context.parent?.otherControllers ?? []).map(
    (o) =>
      `${controllerLabel(o.controllerName)} wrote an entry for this parentRef without an Accepted condition; it was not judged.`
  )
  const plurals = unknown.missing.map((k) => k.toLowerCase()).join(',')
  return {
    title: `Which controller owns Gateway ${name}, and whether it reported on this parentRef, cannot be told without the ${listing(unknown.missing)}`,
    remediation: fromDump
      ? `Add the ${listing(unknown.missing)} to the dump (kubectl get ${plurals} -A -o yaml) and judge it again.`
      : `Let route-gate read the ${listing(unknown.missing)} (get and list on ${plurals}) so it can tell which controller owns Gateway ${name}.`,
    evidence: [
      ...unknown.blind,
      `Without them the owner of Gateway ${name} is unknown, so only status entries with an Accepted condition were judged, and none names this parentRef.`,
      ...others
    ]
  }
}

function gatewayParent(context: DiagnosisContext, ref: ParentRef): Diagnosis {
  const { world } = context
  if (ref.group !== GATEWAY_GROUP) return foreignGatewayGroup(ref)
  const found = lookUpGateway(ref, world)
  if ('diagnosis' in found) return found.diagnosis
  const gateway = found.gateway
  const className = gatewayClassNameOf(gateway) ?? ''
  const evidence = [`Gateway ${gatewayName(ref)} exists and uses GatewayClass ${className}.`]
  const gatewayClass = findGatewayClass(world, className)
  if (!gatewayClass) return missingGatewayClass(ref, className, world, evidence)
  // the chain from class to Route: the first link that is broken is why no status was written
  const unserved = classNotServing(ref, gateway, className, gatewayClass, world, evidence)
  if (unserved) return unserved
  return silentController(context, ref, gateway, controllerNameOf(gatewayClass) ?? '', evidence)
}

/** A parentRef of kind Gateway in another group names something no Gateway API controller watches. */
function foreignGatewayGroup(ref: ParentRef): Diagnosis {
  return {
    title: `parentRef group "${ref.group}" is not the Gateway API group`,
    remediation: `Set the parentRef group to ${GATEWAY_GROUP} (or leave it out) for a Gateway parent.`,
    evidence: [
      `The parentRef names kind Gateway in group "${ref.group}", which no Gateway API controller serves.`
    ]
  }
}

/**
 * The Gateway's class does not exist, so no controller owns the Gateway; or, when GatewayClasses could
 * not be read, only that blind spot can be said.
 */
function missingGatewayClass(
  ref: ParentRef,
  className: string,
  world: World,
  evidence: string[]
): Diagnosis {
  const blind = blindSpots(world, 'gatewayclasses')
  if (blind.length > 0) return { evidence: [...evidence, ...blind] }
  const name = gatewayName(ref)
  const nearest = nearestNames(className, namesIn(world.gatewayClasses))
  const existing = namesIn(world.gatewayClasses)
  evidence.push(`GatewayClass ${className} does not exist.`)
  evidence.push(
    existing.length === 0
      ? 'No GatewayClass exists: no Gateway controller is installed.'
      : `GatewayClasses: ${listing(existing)}.`
  )
  return {
    title: `GatewayClass ${className} of Gateway ${name} does not exist`,
    remediation:
      nearest.length > 0
        ? `Set spec.gatewayClassName of Gateway ${name} to ${oneOf(nearest)}, or install the controller that provides class ${className}.`
        : `Install the Gateway controller that provides class ${className}, or set spec.gatewayClassName of Gateway ${name} to an existing class.`,
    evidence
  }
}

/**
 * What the class's Accepted condition says about its controller: a diagnosis when it rejected the class,
 * or has not accepted it and shows no other sign of serving this Gateway; undefined when it serves.
 */
function classNotServing(
  ref: ParentRef,
  gateway: KubeObject,
  className: string,
  gatewayClass: KubeObject,
  world: World,
  evidence: string[]
): Diagnosis | undefined {
  const controllerName = controllerNameOf(gatewayClass) ?? ''
  const classAccepted = conditionOf(conditionsOf(gatewayClass.status), 'Accepted')
  if (!classAccepted || classAccepted.status === 'Unknown') {
    evidence.push(
      `GatewayClass ${className} names controller ${controllerName} and has not been accepted by it (${classAccepted ? describeCondition(classAccepted) : 'no Accepted condition'}).`
    )
    // Contour's static provisioning never writes class status, yet accepts the Gateway it serves: the
    // controller runs and serves this Gateway, so what is left is its silence about this Route
    if (serving(gateway)) return undefined
    return noControllerServes(ref, gateway, className, controllerName, world, evidence)
  }
  if (classAccepted.status === 'False') {
    evidence.push(`GatewayClass ${className} is not Accepted: ${describeCondition(classAccepted)}.`)
    return {
      title: `GatewayClass ${className} is not Accepted by ${controllerName}`,
      remediation: `Fix GatewayClass ${className} as its Accepted condition says (e.g. its parametersRef), then the controller will serve Gateway ${gatewayName(ref)}.`,
      evidence
    }
  }
  evidence.push(`GatewayClass ${className} is Accepted by ${controllerName}.`)
  return undefined
}

/**
 * The class is not accepted and this Gateway not served: the controller runs elsewhere when it serves
 * another Gateway of the class; otherwise nothing shows that it runs at all.
 */
function noControllerServes(
  ref: ParentRef,
  gateway: KubeObject,
  className: string,
  controllerName: string,
  world: World,
  evidence: string[]
): Diagnosis {
  const name = gatewayName(ref)
  const who = controllerLabel(controllerName)
  const served = servedSiblings(world, gateway, className)
  if (served.length > 0) return runsElsewhere(name, ref, className, served, who, evidence)
  if (!statusWritten(gateway))
    evidence.push(`No controller has written status on Gateway ${name} either.`)
  return {
    title: `No controller has accepted GatewayClass ${className} (${controllerName})`,
    remediation: `Nothing runs for controllerName ${controllerName}: install or start ${who}, or check that the class's controllerName matches the one the installed controller uses.`,
    evidence
  }
}

/**
 * The class's controller runs, yet wrote nothing for the Route: either it has not reached the Gateway
 * (its status is still the CRD default), or it serves the Gateway and is silent about the Route.
 */
function silentController(
  context: DiagnosisContext,
  ref: ParentRef,
  gateway: KubeObject,
  controllerName: string,
  evidence: string[]
): Diagnosis {
  const { route } = context
  const name = gatewayName(ref)
  const who = controllerLabel(controllerName)
  if (!statusWritten(gateway)) {
    evidence.push(
      `No controller has written status on Gateway ${name}: its conditions are still the CRD default.`
    )
    return {
      title: `${who} has not processed Gateway ${name} yet`,
      remediation: `${who} accepted the class but has not reconciled Gateway ${name}: check its logs, and that it watches namespace ${ref.namespace}.`,
      evidence
    }
  }
  evidence.push(`Gateway ${name} has status written by its controller.`)
  return {
    title: `${who} wrote no status for this ${route.kind} on Gateway ${name}`,
    remediation: `${who} serves Gateway ${name} but has not reported on this ${route.kind}: check that it watches namespace ${route.metadata.namespace}, that it supports ${route.kind} (the listeners' supportedKinds) and its logs.`,
    evidence
  }
}

/** Other Gateways of the same class that a controller accepted or programmed: it runs. */
function servedSiblings(world: World, gateway: KubeObject, className: string): KubeObject[] {
  return world.gateways.filter(
    (g) => g !== gateway && gatewayClassNameOf(g) === className && serving(g)
  )
}

/** A controller accepted or programmed this Gateway: it runs and serves it. */
function serving(gateway: KubeObject): boolean {
  return (
    statusWritten(gateway) &&
    conditionsOf(gateway.status).some(
      (c) => (c.type === 'Accepted' || c.type === 'Programmed') && c.status === 'True'
    )
  )
}

/** The class's controller serves another Gateway of the class, not this one: it runs, so never "start it". */
function runsElsewhere(
  name: string,
  ref: ParentRef,
  className: string,
  served: KubeObject[],
  who: string,
  evidence: string[]
): Diagnosis {
  const names = served.map((g) =>
    gatewayName({ namespace: g.metadata.namespace ?? '', name: g.metadata.name })
  )
  evidence.push(
    `Gateway${names.length > 1 ? 's' : ''} ${listing(names.slice(0, 5))} of the same class ${names.length > 1 ? 'are' : 'is'} Accepted or Programmed: the controller runs.`
  )
  return {
    title: `${who} runs but does not serve Gateway ${name}`,
    remediation: `${who} serves ${listing(names.slice(0, 5))} of class ${className} but has not taken Gateway ${name}. A controller can be pinned to one Gateway (Contour's static provisioning serves only the Gateway named in its configuration), or watch only some namespaces: check its configuration for the Gateway it serves and the namespaces it watches (namespace ${ref.namespace}), or attach the Route to a Gateway it serves.`,
    evidence
  }
}

/** The Route with every parentRef to this Service written in the core group; none if it has none. */
function withCoreGroup(route: RouteObject, ref: ParentRef): RouteObject | undefined {
  const spec = isRecord(route.spec) ? route.spec : {}
  const names = (p: unknown): p is Record<string, unknown> =>
    isRecord(p) &&
    p.kind === 'Service' &&
    p.name === ref.name &&
    (p.namespace ?? route.metadata.namespace) === ref.namespace
  const refs = arrayField(spec, 'parentRefs') ?? []
  if (!refs.some(names)) return undefined
  const parentRefs = refs.map((p) => (names(p) ? { ...p, group: '' } : p))
  return { ...route, spec: { ...spec, parentRefs } }
}

const fixed = (route: RouteObject | undefined): { fixes?: Fix[] } =>
  route === undefined ? {} : { fixes: [patchFix(route)] }

function serviceParent(ref: ParentRef, world: World, route: RouteObject): Diagnosis {
  const name = gatewayName(ref)
  if (ref.group !== '') {
    return {
      title: `parentRef to Service ${name} lacks group: ""`,
      remediation: `Set group: "" in the parentRef: without it the CRD default makes it a ${GATEWAY_GROUP} Service, which no mesh serves.`,
      evidence: [
        `The parentRef names kind Service in group "${ref.group}"; a Service parent needs the core group, written as group: "".`
      ],
      ...fixed(withCoreGroup(route, ref))
    }
  }
  const evidence: string[] = []
  if (canSee(world, 'services', ref.namespace)) {
    if (!findService(world, ref.namespace, ref.name)) {
      return missingObject('Service', ref, world.services)
    }
    evidence.push(`Service ${name} exists.`)
  } else {
    evidence.push(...blindSpots(world, 'services', ref.namespace))
  }
  evidence.push('No mesh controller has written status for this Service parent.')
  return {
    title: `No mesh controller reported on Service parent ${name}`,
    remediation: `Check that a mesh implementing GAMMA (Istio, Linkerd, Cilium...) is installed and running, and that namespace ${ref.namespace} is part of the mesh.`,
    evidence
  }
}
