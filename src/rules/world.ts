// The World read into typed values: Gateways and their listeners with their status, classes,
// namespaces, Services and grants, each from untrusted objects, and what could not be read about them.
// Every rule, and every user of the rules, reads the objects through these.
import { parseCondition } from '../model/entries.ts'
import { objectsIn } from '../model/object-index.ts'
import { findObject } from '../model/owner.ts'
import { GATEWAY_GROUP } from '../model/types.ts'
import type { Condition, KubeObject, World } from '../model/types.ts'
import { arrayField, integerField, isRecord, stringField } from '../model/unknown.ts'

export {
  controllerNameOf,
  findGateway,
  findGatewayClass,
  findListenerSet,
  gatewayClassNameOf
} from '../model/owner.ts'

export interface RouteGroupKind {
  group: string
  kind: string
}

export interface Listener {
  name: string
  port?: number
  protocol?: string
  hostname?: string
  /** allowedRoutes.namespaces.from, defaulted to Same as the CRD does */
  from: string
  selector?: unknown
  /** allowedRoutes.kinds as written (empty: the protocol decides) */
  kinds: RouteGroupKind[]
}

export interface ListenerStatus {
  name: string
  /** undefined when the controller wrote none */
  supportedKinds?: RouteGroupKind[]
  conditions: Condition[]
}

export interface ServicePort {
  port: number
  name?: string
  targetPort?: string
  appProtocol?: string
  protocol?: string
}

export type Resource =
  'gateways' | 'gatewayclasses' | 'namespaces' | 'services' | 'referencegrants' | 'listenersets'

const ARRAYS: Record<Resource, keyof Omit<World, 'unreadable' | 'partial' | 'served'>> = {
  gateways: 'gateways',
  gatewayclasses: 'gatewayClasses',
  namespaces: 'namespaces',
  services: 'services',
  referencegrants: 'referenceGrants',
  listenersets: 'listenerSets'
}

/**
 * `unreadable` entries look like "services in namespace shop: forbidden (list)",
 * "gateways in all namespaces: forbidden (list)" or "namespace shop: forbidden (get)".
 */
function unreadableEntries(world: World, resource: Resource, namespace?: string): string[] {
  const singular = `${resource.slice(0, -1)} `
  return world.unreadable.filter((entry) => {
    const head = entry.toLowerCase().split(':')[0] ?? ''
    const plural = head === resource || head.startsWith(`${resource} `)
    if (!plural && !head.startsWith(singular)) return false
    const scoped = /\bin namespace ([^\s:]+)/.exec(head)
    return !scoped || namespace === undefined || scoped[1] === namespace.toLowerCase()
  })
}

/** Why a lookup may miss an object: an entry of `unreadable`, or a kind the source lacks entirely. */
export type BlindSpot = { unreadable: string } | { absent: Resource }

/**
 * Why a lookup of this kind may be incomplete; empty when the World holds every object of that kind,
 * so an absent object really is absent.
 */
export function blindSpotsOf(world: World, resource: Resource, namespace?: string): BlindSpot[] {
  const unreadable = unreadableEntries(world, resource, namespace)
  if (unreadable.length > 0) return unreadable.map((entry) => ({ unreadable: entry }))
  if (world.partial && (world[ARRAYS[resource]] ?? []).length === 0) return [{ absent: resource }]
  return []
}

export function canSee(world: World, resource: Resource, namespace?: string): boolean {
  return blindSpotsOf(world, resource, namespace).length === 0
}

export function findNamespace(world: World, name: string): KubeObject | undefined {
  return findObject(world.namespaces, name)
}

export function findService(world: World, namespace: string, name: string): KubeObject | undefined {
  return findObject(world.services, name, namespace)
}

export function namesIn(objects: readonly KubeObject[], namespace?: string): string[] {
  return objectsIn(objects, namespace).map((o) => o.metadata.name)
}

/** Labels as the API server sees them: `kubernetes.io/metadata.name` is always set. */
export function namespaceLabels(namespace: KubeObject): Record<string, string> {
  return { ...namespace.metadata.labels, 'kubernetes.io/metadata.name': namespace.metadata.name }
}

function readGroupKinds(raw: unknown[] | undefined): RouteGroupKind[] {
  return (raw ?? []).flatMap((item) => {
    const kind = stringField(item, 'kind')
    return kind ? [{ group: stringField(item, 'group') ?? GATEWAY_GROUP, kind }] : []
  })
}

/** The conditions of a Gateway, class or listener status as written: no Route generation to judge them by. */
export function conditionsOf(holder: unknown): Condition[] {
  return (arrayField(holder, 'conditions') ?? []).flatMap((raw) => parseCondition(raw) ?? [])
}

export function conditionOf(conditions: Condition[], type: string): Condition | undefined {
  return conditions.find((c) => c.type === type)
}

/**
 * Read once per object, as routeSpec reads a Route: a run's objects are never changed in place (a
 * changed object is a new one), and every rule of every Route on a Gateway asks for its listeners.
 */
function readOnce<T>(cache: WeakMap<KubeObject, T>, object: KubeObject, read: () => T): T {
  let value = cache.get(object)
  if (value === undefined) {
    value = read()
    cache.set(object, value)
  }
  return value
}

const listenerCache = new WeakMap<KubeObject, Listener[]>()
const listenerStatusCache = new WeakMap<KubeObject, ListenerStatus[]>()
const servicePortCache = new WeakMap<KubeObject, ServicePort[]>()

export function listenersOf(gateway: KubeObject): readonly Listener[] {
  return readOnce(listenerCache, gateway, () => readListeners(gateway))
}

function readListeners(gateway: KubeObject): Listener[] {
  return (arrayField(gateway.spec, 'listeners') ?? []).flatMap((raw) => {
    const name = stringField(raw, 'name')
    if (!name || !isRecord(raw)) return []
    const allowed = raw.allowedRoutes
    const namespaces = isRecord(allowed) ? allowed.namespaces : undefined
    const listener: Listener = {
      name,
      from: stringField(namespaces, 'from') ?? 'Same',
      kinds: readGroupKinds(arrayField(allowed, 'kinds'))
    }
    const port = integerField(raw, 'port')
    if (port !== undefined) listener.port = port
    const protocol = stringField(raw, 'protocol')
    if (protocol) listener.protocol = protocol
    const hostname = stringField(raw, 'hostname')
    if (hostname) listener.hostname = hostname
    if (isRecord(namespaces) && namespaces.selector !== undefined) {
      listener.selector = namespaces.selector
    }
    return [listener]
  })
}

export function listenerStatusesOf(gateway: KubeObject): readonly ListenerStatus[] {
  return readOnce(listenerStatusCache, gateway, () => readListenerStatuses(gateway))
}

/** The Accepted=False its controller wrote on the named listener of `gateway`, if it refused it. */
export function listenerRefusal(gateway: KubeObject, listener: string): Condition | undefined {
  const status = listenerStatusesOf(gateway).find((s) => s.name === listener)
  const accepted = status ? conditionOf(status.conditions, 'Accepted') : undefined
  return accepted?.status === 'False' ? accepted : undefined
}

function readListenerStatuses(gateway: KubeObject): ListenerStatus[] {
  return (arrayField(gateway.status, 'listeners') ?? []).flatMap((raw) => {
    const name = stringField(raw, 'name')
    if (!name) return []
    const status: ListenerStatus = { name, conditions: conditionsOf(raw) }
    const kinds = arrayField(raw, 'supportedKinds')
    if (kinds) status.supportedKinds = readGroupKinds(kinds)
    return [status]
  })
}

export function servicePortsOf(service: KubeObject): readonly ServicePort[] {
  return readOnce(servicePortCache, service, () => readServicePorts(service))
}

function readServicePorts(service: KubeObject): ServicePort[] {
  return (arrayField(service.spec, 'ports') ?? []).flatMap((raw) => {
    const port = integerField(raw, 'port')
    if (port === undefined || !isRecord(raw)) return []
    const result: ServicePort = { port }
    const name = stringField(raw, 'name')
    if (name) result.name = name
    const target = raw.targetPort
    if (typeof target === 'number' || typeof target === 'string') result.targetPort = String(target)
    const appProtocol = stringField(raw, 'appProtocol')
    if (appProtocol) result.appProtocol = appProtocol
    const protocol = stringField(raw, 'protocol')
    if (protocol) result.protocol = protocol
    return [result]
  })
}
