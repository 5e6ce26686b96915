// An in-memory ClusterClient for unit tests of the gate's orchestration: the test pushes list and
// watch events; the fake records what the gate asked for. The real client is tested against a
// loopback API server (test/unit/cluster) and the real control plane (test/integration).
import type {
  ApplyOptions,
  ApplyResult,
  ClusterClient,
  RouteScope,
  RouteWatchHandlers
} from '../../src/cluster/types.ts'
import type { ClusterDump } from '../../src/cluster/types.ts'
import type { ManifestDocument } from '../../src/read/manifests.ts'
import type { LiveObject } from '../../src/cluster/objects.ts'
import {
  ROUTE_KINDS,
  type KubeObject,
  type RouteKind,
  type RouteObject,
  type World
} from '../../src/model/types.ts'

export class FakeCluster implements ClusterClient {
  readonly description = 'https://fake:6443 (context fake)'
  readonly namespace = 'default'
  readonly origin = { server: 'https://fake:6443', context: 'fake' }
  world: World = {
    gatewayClasses: [],
    gateways: [],
    namespaces: [],
    services: [],
    referenceGrants: [],
    unreadable: []
  }
  routes: RouteObject[] = []
  served = new Map<RouteKind, string>([
    ['HTTPRoute', 'gateway.networking.k8s.io/v1'],
    ['GRPCRoute', 'gateway.networking.k8s.io/v1']
  ])
  applied: { docs: ManifestDocument[]; options: ApplyOptions }[] = []
  scopes: RouteScope[] = []
  worldReads: string[][] = []
  handlers: RouteWatchHandlers | undefined
  watchError: Error | undefined
  closed = false

  routeVersions(): Promise<Map<RouteKind, string>> {
    return Promise.resolve(this.served)
  }

  apply(docs: ManifestDocument[], options: ApplyOptions): Promise<ApplyResult> {
    this.applied.push({ docs, options })
    return Promise.resolve({
      applied: docs.map((doc) => ({
        doc,
        object: {
          ...doc.object,
          metadata: {
            ...doc.object.metadata,
            namespace: doc.object.metadata.namespace ?? options.namespace ?? this.namespace,
            generation: 1
          }
        }
      }))
    })
  }

  checkNamespaces(): Promise<void> {
    return Promise.resolve()
  }

  listRoutes(): Promise<RouteObject[]> {
    return Promise.resolve(this.routes)
  }

  /** Delivers the current routes as one list per kind, then waits for pushed events until aborted. */
  watchRoutes(scope: RouteScope, handlers: RouteWatchHandlers, signal: AbortSignal): Promise<void> {
    this.scopes.push(scope)
    this.handlers = handlers
    // as the real client: one list per kind and namespace (null: all namespaces), one after another
    const namespaces = scope.namespaces === 'all' ? [null] : scope.namespaces
    for (const kind of scope.kinds) {
      for (const namespace of namespaces) {
        handlers.onList(
          kind,
          namespace,
          this.routes.filter(
            (r) => r.kind === kind && (namespace === null || r.metadata.namespace === namespace)
          )
        )
      }
    }
    return new Promise((resolve, reject) => {
      if (this.watchError) reject(this.watchError)
      signal.addEventListener('abort', () => resolve())
    })
  }

  /** As a watch event would: the route replaces the stored one with the same kind/namespace/name. */
  push(type: 'ADDED' | 'MODIFIED' | 'DELETED', route: RouteObject): void {
    const same = (r: RouteObject): boolean =>
      r.kind === route.kind &&
      r.metadata.namespace === route.metadata.namespace &&
      r.metadata.name === route.metadata.name
    this.routes = this.routes.filter((r) => !same(r))
    if (type !== 'DELETED') this.routes.push(route)
    this.handlers?.onChange(type, route)
  }

  /** the Route or World object of that kind, namespace and name, as the fake holds it */
  readObject(object: KubeObject, namespace: string): Promise<LiveObject> {
    const { gatewayClasses, gateways, namespaces, services, referenceGrants } = this.world
    const all: KubeObject[] = [
      ...this.routes,
      ...gatewayClasses,
      ...gateways,
      ...namespaces,
      ...services,
      ...referenceGrants
    ]
    const wanted =
      object.kind === 'Namespace' ? undefined : (object.metadata.namespace ?? namespace)
    const found = all.find(
      (o) =>
        o.kind === object.kind &&
        o.metadata.name === object.metadata.name &&
        (wanted === undefined || o.metadata.namespace === wanted)
    )
    return Promise.resolve(found ?? 'absent')
  }

  servedDefaults(): Promise<Map<string, unknown> | undefined> {
    return Promise.resolve(undefined)
  }

  readWorld(namespaces: string[]): Promise<World> {
    this.worldReads.push(namespaces)
    return Promise.resolve(this.world)
  }

  /** the world and the Routes, every kind listed completely */
  readDump(): Promise<ClusterDump> {
    const { gatewayClasses, gateways, namespaces, services, referenceGrants } = this.world
    return Promise.resolve({
      objects: [
        ...gatewayClasses,
        ...gateways,
        ...this.routes,
        ...namespaces,
        ...services,
        ...referenceGrants
      ],
      forbidden: [],
      complete: [
        'GatewayClass',
        'Gateway',
        'Namespace',
        'Service',
        'ReferenceGrant',
        ...ROUTE_KINDS
      ]
    })
  }

  close(): void {
    this.closed = true
  }
}
