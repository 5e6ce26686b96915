// Listing Routes: which (kind, namespace) pairs a scope covers, one list request per pair, and the
// objects as plain JSON with apiVersion and kind set (list items arrive without them).
import type { RouteKind, RouteObject } from '../model/types.ts'
import type { RouteScope } from './types.ts'
import { groupVersionPath, type ResourceInfo } from './discovery.ts'
import { toClusterError, type Operation } from './errors.ts'
import { withRetry } from './retry.ts'
import type { Session } from './session.ts'

/** One list/watch unit: a Route kind in one namespace, or in all (namespace null). */
export interface RouteTarget {
  kind: RouteKind
  resource: ResourceInfo
  namespace: string | null
}

export interface RouteList {
  routes: RouteObject[]
  resourceVersion: string
}

interface ListResponse {
  metadata?: { resourceVersion?: string }
  items?: Record<string, unknown>[]
}

/** The kinds of the scope the server serves, crossed with its namespaces. Unserved kinds are skipped. */
export async function routeTargets(session: Session, scope: RouteScope): Promise<RouteTarget[]> {
  const served = await session.discovery.gatewayResources()
  const namespaces = scope.namespaces === 'all' ? [null] : scope.namespaces
  return scope.kinds.flatMap((kind) => {
    const resource = served.get(kind)
    return resource ? namespaces.map((namespace) => ({ kind, resource, namespace })) : []
  })
}

export function targetCollectionPath(target: RouteTarget): string {
  const { group, version, plural } = target.resource
  const scope =
    target.namespace === null ? '' : `/namespaces/${encodeURIComponent(target.namespace)}`
  return `${groupVersionPath(group, version)}${scope}/${plural}`
}

export function targetOperation(target: RouteTarget, verb: string): Operation {
  return { verb, resource: target.resource.plural, namespace: target.namespace }
}

/** A Route as delivered to callers: plain JSON with its type set. */
export function asRoute(object: Record<string, unknown>, target: RouteTarget): RouteObject {
  const { group, version } = target.resource
  // managedFields are often the bulk of an object and nothing reads them; thousands of Routes are held
  const { managedFields: _, ...metadata } = (object.metadata ?? {}) as Record<string, unknown>
  return {
    ...object,
    apiVersion: `${group}/${version}`,
    kind: target.kind,
    metadata
  } as RouteObject
}

export function inScope(route: RouteObject, scope: RouteScope): boolean {
  if (!scope.names) return true
  return scope.names.some(
    (key) =>
      key.kind === route.kind &&
      key.namespace === route.metadata.namespace &&
      key.name === route.metadata.name
  )
}

export async function listTarget(
  session: Session,
  target: RouteTarget,
  labelSelector: string | undefined,
  signal?: AbortSignal
): Promise<RouteList> {
  const list = await session.api.request<ListResponse>('GET', targetCollectionPath(target), {
    query: { labelSelector },
    signal
  })
  return {
    routes: (list.items ?? []).map((item) => asRoute(item, target)),
    resourceVersion: list.metadata?.resourceVersion ?? ''
  }
}

export async function listRoutes(session: Session, scope: RouteScope): Promise<RouteObject[]> {
  const targets = await routeTargets(session, scope)
  const lists = await Promise.all(
    targets.map(async (target) => {
      try {
        const list = await withRetry(
          () => listTarget(session, target, scope.labelSelector),
          session.tuning.retry
        )
        return list.routes
      } catch (error) {
        throw toClusterError(error, targetOperation(target, 'list'), session.description)
      }
    })
  )
  return lists.flat().filter((route) => inScope(route, scope))
}
