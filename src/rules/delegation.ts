// Route delegation (kgateway): an HTTPRoute forwards part of its traffic to other HTTPRoutes through
// a backendRef of kind HTTPRoute, by name or `*` for every HTTPRoute of a namespace. The child has
// no parentRefs of its own, and the controller still accepts it: without parents it is not broken.
import { routeBackendRefs } from '../model/route-spec.ts'
import { GATEWAY_GROUP, type RouteObject } from '../model/types.ts'
import { perList } from '../model/per-list.ts'

const key = (namespace: string, name: string): string => `${namespace}/${name}`

/** The Routes that delegate to a child, by `namespace/name` and `namespace/*`, the first of each. */
const delegations = perList((routes): Map<string, RouteObject> => {
  const byChild = new Map<string, RouteObject>()
  for (const route of routes) {
    for (const ref of routeBackendRefs(route)) {
      if (ref.group !== GATEWAY_GROUP || ref.kind !== 'HTTPRoute') continue
      const child = key(ref.namespace, ref.name)
      if (!byChild.has(child)) byChild.set(child, route)
    }
  }
  return byChild
})

/** The HTTPRoute that delegates to `route` through a backendRef, if any. */
export function delegatorOf(
  route: RouteObject,
  routes: readonly RouteObject[]
): RouteObject | undefined {
  if (route.kind !== 'HTTPRoute') return undefined
  const byChild = delegations(routes)
  const { namespace, name } = route.metadata
  const parent = byChild.get(key(namespace, name)) ?? byChild.get(key(namespace, '*'))
  return parent === route ? undefined : parent
}
