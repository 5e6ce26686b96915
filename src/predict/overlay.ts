// One object set from the cluster source and the pull request's manifests: a manifest object replaces
// the cluster's object of the same group, kind, namespace and name. Indexed once by kind, namespace and
// name, so predicting thousands of Routes never scans a list per lookup.
import type { ManifestDocument } from '../read/manifests.ts'
import { grantSource, grantSources } from '../rules/references.ts'
import { isRouteObject } from '../model/kinds.ts'
import { apiGroupOf } from '../model/owner.ts'
import { EXPERIMENTAL_GROUP, GATEWAY_GROUP } from '../model/types.ts'
import type { IgnoredDocument, KubeObject, RouteObject, World } from '../model/types.ts'
import { arrayField, isRecord, stringField } from '../model/unknown.ts'

/** The kinds predict reads, by the World array that holds them; Routes are kept apart. */
const WORLD_KINDS: Record<string, keyof Omit<World, 'unreadable' | 'partial' | 'served'>> = {
  GatewayClass: 'gatewayClasses',
  Gateway: 'gateways',
  Namespace: 'namespaces',
  Service: 'services',
  ReferenceGrant: 'referenceGrants',
  ListenerSet: 'listenerSets',
  XListenerSet: 'listenerSets',
  BackendTLSPolicy: 'backendTLSPolicies'
}

const CLUSTER_SCOPED = new Set(['GatewayClass', 'Namespace'])

/** The kinds whose absence from the source predict must name: what `complete` may list. */
export const NEEDED_KINDS = [
  'GatewayClass',
  'Gateway',
  'Namespace',
  'Service',
  'ReferenceGrant',
  'ListenerSet'
] as const
export type NeededKind = (typeof NEEDED_KINDS)[number]

/**
 * The kinds predict needs of which a dump holds at least one object: a dump users make (kubectl get
 * … -A) lists a kind in full or not at all, unless it was cut by namespace or label.
 */
export function kindsHeld(objects: KubeObject[]): NeededKind[] {
  const held = new Set(objects.map((o) => (o.kind === 'XListenerSet' ? 'ListenerSet' : o.kind)))
  return NEEDED_KINDS.filter((kind) => held.has(kind))
}

/** How the dump's `unreadable` wording names each kind (see diagnose/world.ts blindSpots). */
const RESOURCES: Record<NeededKind, string> = {
  GatewayClass: 'gatewayclasses',
  Gateway: 'gateways',
  Namespace: 'namespaces',
  Service: 'services',
  ReferenceGrant: 'referencegrants',
  ListenerSet: 'listenersets'
}

function key(kind: string, namespace: string | undefined, name: string): string {
  return `${kind}\u0000${namespace ?? ''}\u0000${name}`
}

/** "kind\0namespace\0name" of an object, its namespace defaulted as kubectl apply would. */
function objectKey(object: KubeObject): string {
  return `${apiGroupOf(object)}\u0000${key(object.kind, object.metadata.namespace, object.metadata.name)}`
}

function withNamespace(object: KubeObject, namespace: string): KubeObject {
  if (CLUSTER_SCOPED.has(object.kind) || object.metadata.namespace) return object
  return { ...object, metadata: { ...object.metadata, namespace } }
}

function wellFormed(object: unknown): object is KubeObject {
  return (
    isRecord(object) &&
    typeof object.apiVersion === 'string' &&
    typeof object.kind === 'string' &&
    stringField(object.metadata, 'name') !== undefined
  )
}

/** Routes and the kinds around them, in their own API group (a Service of another group is not one). */
function readsAs(object: KubeObject): boolean {
  if (isRouteObject(object)) return true
  if (!WORLD_KINDS[object.kind]) return false
  const group = apiGroupOf(object)
  if (object.kind === 'Namespace' || object.kind === 'Service') return group === ''
  return group === (object.kind === 'XListenerSet' ? EXPERIMENTAL_GROUP : GATEWAY_GROUP)
}

/** The World predict reads, with lookups by name. */
export interface Objects {
  world: World
  routes: RouteObject[]
  gateway: (namespace: string, name: string) => KubeObject | undefined
  gatewayClass: (name: string) => KubeObject | undefined
  namespace: (name: string) => KubeObject | undefined
  service: (namespace: string, name: string) => KubeObject | undefined
  /** the ReferenceGrants in `namespace` that admit the Route's kind and namespace, in order */
  grantsFor: (namespace: string, route: RouteObject) => KubeObject[]
  /** whether the source lists every object of this kind, so an absent one is really absent */
  complete: (kind: NeededKind) => boolean
  /**
   * The BackendTLSPolicies that target the Service; undefined when the source does not list them
   * all (a dump from before route-gate listed them, or a kubectl List without any).
   */
  tlsPolicies: (namespace: string, service: string) => KubeObject[] | undefined
}

/**
 * Indexes objects. `complete` names the kinds the cluster source lists completely; a kind that is not
 * complete is also entered in `world.unreadable`, so the diagnosis' evidence says it could not be checked.
 */
export function index(objects: KubeObject[], complete: Iterable<string>): Objects {
  const world: World = {
    gatewayClasses: [],
    gateways: [],
    namespaces: [],
    services: [],
    referenceGrants: [],
    listenerSets: [],
    unreadable: []
  }
  const routes: RouteObject[] = []
  const byKey = new Map<string, KubeObject>()
  const grants = new Map<string, KubeObject[]>()
  for (const object of objects) {
    if (isRouteObject(object)) {
      routes.push(object)
      continue
    }
    const array = WORLD_KINDS[object.kind]
    if (!array) continue
    ;(world[array] ??= []).push(object)
    byKey.set(key(object.kind, object.metadata.namespace, object.metadata.name), object)
    if (object.kind === 'ReferenceGrant') {
      // by namespace and the Routes admitted: a namespace may hold a grant for each other one
      for (const source of grantSources(object)) {
        const k = `${object.metadata.namespace ?? ''}\u0000${source}`
        const list = grants.get(k)
        if (list) list.push(object)
        else grants.set(k, [object])
      }
    }
  }
  const policies = new Map<string, KubeObject[]>()
  for (const policy of world.backendTLSPolicies ?? []) {
    for (const target of arrayField(policy.spec, 'targetRefs') ?? []) {
      if (stringField(target, 'kind') !== 'Service' || (stringField(target, 'group') ?? '') !== '')
        continue
      const k = `${policy.metadata.namespace ?? ''}\u0000${stringField(target, 'name') ?? ''}`
      policies.set(k, [...(policies.get(k) ?? []), policy])
    }
  }
  const completeKinds = new Set(complete)
  for (const kind of NEEDED_KINDS) {
    if (!completeKinds.has(kind))
      world.unreadable.push(`${RESOURCES[kind]} in all namespaces: not in the cluster source`)
  }
  return {
    world,
    routes,
    gateway: (namespace, name) => byKey.get(key('Gateway', namespace, name)),
    gatewayClass: (name) => byKey.get(key('GatewayClass', undefined, name)),
    namespace: (name) => byKey.get(key('Namespace', undefined, name)),
    service: (namespace, name) => byKey.get(key('Service', namespace, name)),
    grantsFor: (namespace, route) => grants.get(`${namespace}\u0000${grantSource(route)}`) ?? [],
    complete: (kind) => completeKinds.has(kind),
    tlsPolicies: (namespace, service) =>
      completeKinds.has('BackendTLSPolicy')
        ? (policies.get(`${namespace}\u0000${service}`) ?? [])
        : undefined
  }
}

/**
 * An object the change updates keeps its cluster copy's creationTimestamp, as the API server keeps
 * it: Route precedence (the oldest Route keeps a contested match) reads it.
 */
function keepCreation(object: KubeObject, before: KubeObject | undefined): KubeObject {
  const created = before?.metadata.creationTimestamp
  if (created === undefined || object.metadata.creationTimestamp !== undefined) return object
  return { ...object, metadata: { ...object.metadata, creationTimestamp: created } }
}

export interface Overlay {
  /** cluster objects with the manifests' in their place */
  objects: KubeObject[]
  /** the cluster objects alone (each key once, as in objects): what calibration reads */
  cluster: KubeObject[]
  /** the Routes of the manifests, with their file and line: the ones predicted */
  routes: { route: RouteObject; file: string; line: number }[]
  /** the manifests' Routes the cluster does not hold and that carry no creationTimestamp: new */
  created: Set<RouteObject>
  /** the manifests' Routes the cluster source does not hold, new or not */
  added: RouteObject[]
  /** Gateways the manifests create that the cluster does not hold: "namespace/name" */
  newGateways: Set<string>
  ignored: IgnoredDocument[]
}

/**
 * The manifests laid over the cluster objects. Documents predict does not read (a Deployment, a
 * ConfigMap, a list of unknown shape) are listed as ignored, never guessed at.
 */
export function overlay(
  cluster: KubeObject[],
  manifests: ManifestDocument[],
  /** where a namespaced manifest without metadata.namespace lands, as kubectl apply -n would put it */
  namespace = 'default'
): Overlay {
  const merged = new Map<string, KubeObject>()
  for (const object of cluster) if (wellFormed(object)) merged.set(objectKey(object), object)
  const clusterOnly = [...merged.values()]
  const routes: Overlay['routes'] = []
  const newGateways = new Set<string>()
  const created = new Set<RouteObject>()
  const added: RouteObject[] = []
  const ignored: IgnoredDocument[] = []
  for (const doc of manifests) {
    const raw: unknown = doc.object
    if (!wellFormed(raw)) {
      ignored.push({
        file: doc.file,
        line: doc.line,
        why: 'not a Kubernetes object (apiVersion, kind and metadata.name are needed)'
      })
      continue
    }
    if (!readsAs(raw)) {
      ignored.push({
        file: doc.file,
        line: doc.line,
        kind: raw.kind,
        name: raw.metadata.name,
        why: `predict does not read ${raw.kind} (${raw.apiVersion})`
      })
      continue
    }
    const placed = withNamespace(raw, namespace)
    const k = objectKey(placed)
    const before = merged.get(k)
    if (placed.kind === 'Gateway' && !before)
      newGateways.add(`${placed.metadata.namespace ?? ''}/${placed.metadata.name}`)
    const object = keepCreation(placed, before)
    merged.set(k, object)
    if (isRouteObject(object)) {
      routes.push({ route: object, file: doc.file, line: doc.line })
      // one that says when it was created (copied from the cluster) is not new
      if (!before && object.metadata.creationTimestamp === undefined) created.add(object)
      if (!before) added.push(object)
    }
  }
  return {
    objects: [...merged.values()],
    cluster: clusterOnly,
    routes,
    created,
    added,
    newGateways,
    ignored
  }
}

/**
 * `base` with one object put in place of `before` (or added, for a created one): what a fix's proof
 * predicts against. Only the lookups of the changed kind are rebuilt, so a proof costs the objects
 * of that kind, not the whole source.
 */
export function withObject(
  base: Objects,
  after: KubeObject,
  before: KubeObject | undefined
): Objects {
  if (isRouteObject(after)) {
    const routes = before
      ? base.routes.map((r) => (r === before ? after : r))
      : [...base.routes, after]
    return { ...base, routes }
  }
  const array = WORLD_KINDS[after.kind]
  if (!array) return base
  const list = base.world[array] ?? []
  const world = {
    ...base.world,
    [array]: before ? list.map((o) => (o === before ? after : o)) : [...list, after]
  }
  const changed = key(after.kind, after.metadata.namespace, after.metadata.name)
  const pick =
    <A extends unknown[]>(kind: string, lookUp: (...args: A) => KubeObject | undefined) =>
    (...args: A): KubeObject | undefined => {
      const [namespace, name] = args.length === 1 ? [undefined, args[0]] : args
      return key(kind, namespace as string | undefined, name as string) === changed
        ? after
        : lookUp(...args)
    }
  const grantsFor: Objects['grantsFor'] = (namespace, route) => {
    const grants = base.grantsFor(namespace, route).filter((g) => g !== before)
    const admits =
      namespace === after.metadata.namespace && grantSources(after).has(grantSource(route))
    return admits ? [...grants, after] : grants
  }
  return {
    ...base,
    world,
    gateway: pick('Gateway', base.gateway),
    gatewayClass: pick('GatewayClass', base.gatewayClass),
    namespace: pick('Namespace', base.namespace),
    service: pick('Service', base.service),
    grantsFor: after.kind === 'ReferenceGrant' ? grantsFor : base.grantsFor
  }
}
