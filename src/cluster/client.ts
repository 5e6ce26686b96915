// The ClusterClient of route-gate: wires one Session into the operations.
import { ClusterError } from '../runtime/errors.ts'
import {
  ROUTE_KINDS,
  type KubeObject,
  type RouteKind,
  type RouteObject,
  type World
} from '../model/types.ts'
import type {
  ApplyOptions,
  ApplyResult,
  ClusterClient,
  ClusterDump,
  ClusterOrigin,
  RouteScope,
  RouteWatchHandlers
} from './types.ts'
import type { ManifestDocument } from '../read/manifests.ts'
import { applyDocuments } from './apply.ts'
import { answeredWith, toClusterError } from './errors.ts'
import { listRoutes } from './routes.ts'
import { withRetry } from './retry.ts'
import type { Session } from './session.ts'
import { watchRoutes } from './watch.ts'
import { readWorld } from './read-world.ts'
import { readClusterDump } from './dump.ts'
import { readObject, servedDefaults, type LiveObject } from './objects.ts'

export class KubeClusterClient implements ClusterClient {
  readonly description: string
  readonly namespace: string

  constructor(
    private readonly session: Session,
    readonly origin: ClusterOrigin
  ) {
    this.description = session.description
    this.namespace = session.defaultNamespace
  }

  async routeVersions(): Promise<Map<RouteKind, string>> {
    const served = await this.session.discovery.gatewayResources()
    const versions = new Map<RouteKind, string>()
    for (const kind of ROUTE_KINDS) {
      const resource = served.get(kind)
      if (resource) versions.set(kind, `${resource.group}/${resource.version}`)
    }
    return versions
  }

  apply(docs: ManifestDocument[], options: ApplyOptions): Promise<ApplyResult> {
    return applyDocuments(this.session, docs, options)
  }

  async checkNamespaces(namespaces: string[]): Promise<void> {
    await Promise.all(namespaces.map((namespace) => this.checkNamespace(namespace)))
  }

  private async checkNamespace(namespace: string): Promise<void> {
    const { api, tuning, description } = this.session
    try {
      await withRetry(
        () => api.request('GET', `/api/v1/namespaces/${encodeURIComponent(namespace)}`),
        tuning.retry
      )
    } catch (error) {
      if (answeredWith(error, 404)) {
        throw new ClusterError(`Namespace "${namespace}" not found on ${description}`)
      }
      // Namespaces are cluster-scoped: a namespaced CI account may not read them. Not knowing is
      // no reason to stop; listing Routes there will tell.
      if (answeredWith(error, 403)) return
      throw toClusterError(error, { verb: 'get', resource: `namespace ${namespace}` }, description)
    }
  }

  listRoutes(scope: RouteScope): Promise<RouteObject[]> {
    return listRoutes(this.session, scope)
  }

  watchRoutes(scope: RouteScope, handlers: RouteWatchHandlers, signal: AbortSignal): Promise<void> {
    return watchRoutes(
      this.session,
      scope,
      handlers,
      AbortSignal.any([signal, this.session.closing.signal])
    )
  }

  readWorld(namespaces: string[]): Promise<World> {
    return readWorld(this.session, namespaces)
  }

  /** the whole cluster as predict reads it, read-only */
  readDump(): Promise<ClusterDump> {
    return readClusterDump(this.session)
  }

  readObject(object: KubeObject, namespace: string): Promise<LiveObject> {
    return readObject(this.session, object, namespace)
  }

  servedDefaults(apiVersion: string, kind: string): Promise<Map<string, unknown> | undefined> {
    return servedDefaults(this.session, apiVersion, kind)
  }

  lastFault(): string | undefined {
    return this.session.api.currentFault()
  }

  close(): void {
    this.session.closing.abort()
  }
}
