import type { RouteKey, RouteObject } from './types.ts'

type Named = { kind: string; namespace: string; name: string }

/** "HTTPRoute shop/web": how a Route is named in notes, logs and renderings. */
export function routeId(r: Named): string {
  return `${r.kind} ${r.namespace}/${r.name}`
}

/** "HTTPRoute/shop/web": a Route's key in maps and sets. */
export function routeKey(r: Named): string {
  return `${r.kind}/${r.namespace}/${r.name}`
}

/** The kind, namespace and name of a Route object. */
export function routeRef(route: RouteObject): RouteKey {
  return { kind: route.kind, namespace: route.metadata.namespace, name: route.metadata.name }
}

/** Code-point order, the same on every machine whatever its locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
