// Typed lookups into the World: the Gateways, classes, namespaces, Services and grants diagnosis reads,
// each from untrusted objects, and what could not be read about them.
import { parseCondition } from '../model/entries.ts'
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

type Resource =
  'gateways' | 'gatewayclasses' | 'namespaces' | 'services' | 'referencegrants' | 'listenersets'

const ARRAYS: Record<Resource, keyof Omit<World, 'unreadable' | 'partial' | 'served'>> = {
  gateways: 'gateways',
  gatewayclasses: 'gatewayClasses',
  namespaces: 'namespaces',
  services: 'services',
  referencegrants: 'referenceGrants',
  listenersets: 'listenerSets'
}

const LABELS: Record<Resource, string> = {
  gateways: 'Gateways',
  gatewayclasses: 'GatewayClasses',
  namespaces: 'Namespaces',
  services: 'Services',
  referencegrants: 'ReferenceGrants',
  listenersets: 'ListenerSets'
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

/**
 * Sentences saying why a lookup of this kind may be incomplete; empty when the World holds every
 * object of that kind, so an absent object really is absent.
 */
export function blindSpots(world: World, resource: Resource, namespace?: string): string[] {
  const unreadable = unreadableEntries(world, resource, namespace).map(
    (entry) => `Could not read ${entry}.`
  )
  if (unreadable.length > 0) return unreadable
  if (world.partial && (world[ARRAYS[resource]] ?? []).length === 0) {
    return [`The source holds no ${LABELS[resource]}, so they could not be checked.`]
  }
  return []
}

export function canSee(world: World, resource: Resource, namespace?: string): boolean {
  return blindSpots(world, resource, namespace).length === 0
}

export function findNamespace(world: World, name: string): KubeObject | undefined {
  return findObject(world.namespaces, name)
}

export function findService(world: World, namespace: string, name: string): KubeObject | undefined {
  return findObject(world.services, name, namespace)
}

export function namesIn(objects: KubeObject[], namespace?: string): string[] {
  return objects
    .filter((o) => namespace === undefined || o.metadata.namespace === namespace)
    .map((o) => o.metadata.name)
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

export function listenersOf(gateway: KubeObject): Listener[] {
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

export function listenerStatusesOf(gateway: KubeObject): ListenerStatus[] {
  return (arrayField(gateway.status, 'listeners') ?? []).flatMap((raw) => {
    const name = stringField(raw, 'name')
    if (!name) return []
    const status: ListenerStatus = { name, conditions: conditionsOf(raw) }
    const kinds = arrayField(raw, 'supportedKinds')
    if (kinds) status.supportedKinds = readGroupKinds(kinds)
    return [status]
  })
}

/** "http (port 80, HTTP, hostname *.example.com)" */
export function describeListener(listener: Listener): string {
  const parts = [
    listener.port === undefined ? undefined : `port ${listener.port}`,
    listener.protocol,
    listener.hostname === undefined ? undefined : `hostname ${listener.hostname}`
  ].filter((p) => p !== undefined)
  return parts.length === 0 ? listener.name : `${listener.name} (${parts.join(', ')})`
}

export function servicePortsOf(service: KubeObject): ServicePort[] {
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

/** "80 (http)", "9090" */
export function describeServicePort(port: ServicePort): string {
  return port.name ? `${port.port} (${port.name})` : String(port.port)
}
