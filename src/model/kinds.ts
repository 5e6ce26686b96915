import { GATEWAY_GROUP, ROUTE_KINDS } from './types.ts'
import type { KubeObject, RouteKind, RouteObject } from './types.ts'
import { isRecord } from './unknown.ts'

/** Accepts the kind or its resource name in any case: 'HTTPRoute', 'httproute', 'httproutes'. */
export function parseRouteKind(text: string): RouteKind | undefined {
  const wanted = text.trim().toLowerCase()
  return ROUTE_KINDS.find((kind) => {
    const lower = kind.toLowerCase()
    return wanted === lower || wanted === `${lower}s`
  })
}

/**
 * Only kind and API group are checked: every served version has the same status wire format.
 * metadata.namespace is not checked, because a manifest may leave it to the apply step.
 */
export function isRouteObject(o: KubeObject): o is RouteObject {
  if (!isRecord(o) || !isRecord(o.metadata) || typeof o.apiVersion !== 'string') return false
  const slash = o.apiVersion.indexOf('/')
  const group = slash === -1 ? '' : o.apiVersion.slice(0, slash)
  return group === GATEWAY_GROUP && (ROUTE_KINDS as readonly string[]).includes(o.kind)
}
