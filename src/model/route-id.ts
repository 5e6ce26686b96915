import type { RouteKey, RouteKind, RouteObject } from './types.ts'

type Named = { kind: string; namespace: string; name: string }

/** "HTTPRoute shop/web": how a Route is named in notes, logs and renderings. */
export function routeId(r: Named): string {
  return `${r.kind} ${r.namespace}/${r.name}`
}

/** "HTTPRoute/shop/web": a Route's key in maps and sets. */
export function routeKey(r: Named): string {
  return `${r.kind}/${r.namespace}/${r.name}`
}

/** The Route a key names: the inverse of routeKey. */
export function parseRouteKey(key: string): RouteKey {
  const [kind = '', namespace = '', ...name] = key.split('/')
  return { kind: kind as RouteKind, namespace, name: name.join('/') }
}

/** "HTTPRoute shop/web" for a Route object. */
export function routeIdOf(route: RouteObject): string {
  return routeId(routeRef(route))
}

/** The kind, namespace and name of a Route object. */
export function routeRef(route: RouteObject): RouteKey {
  return { kind: route.kind, namespace: route.metadata.namespace, name: route.metadata.name }
}

/** Code-point order, the same on every machine whatever its locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * Gateway API's tie-break between Routes that claim the same thing: the oldest creationTimestamp
 * first, then {namespace}/{name} in alphabetical order; a Route without a creationTimestamp (not
 * read from the cluster) last.
 */
export function olderRouteFirst(a: RouteObject, b: RouteObject): number {
  const [x, y] = [created(a), created(b)]
  if (x !== y) return x < y ? -1 : 1
  return compareText(
    `${a.metadata.namespace}/${a.metadata.name}`,
    `${b.metadata.namespace}/${b.metadata.name}`
  )
}

function created(route: RouteObject): number {
  const ms = Date.parse(route.metadata.creationTimestamp ?? '')
  return Number.isNaN(ms) ? Infinity : ms
}
