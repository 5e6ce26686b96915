// A Route's references to its backends: which ReferenceGrant permits a reference to another namespace,
// and how a Service backendRef resolves against the Service it names (Gateway API ResolvedRefs).
import { servicePortsOf } from './world.ts'
import type { BackendRef } from '../model/route-spec.ts'
import { GATEWAY_GROUP } from '../model/types.ts'
import type { KubeObject, RouteObject } from '../model/types.ts'
import { arrayField, stringField } from '../model/unknown.ts'

export interface Grant {
  object: KubeObject
  from: { group: string; kind: string; namespace: string }[]
  to: { group: string; kind: string; name?: string }[]
}

/** Grants as read, per object: predict checks thousands of Routes against the same few grants. */
const readGrants = new WeakMap<KubeObject, Grant>()

export function readGrant(object: KubeObject): Grant {
  const known = readGrants.get(object)
  if (known) return known
  const grant: Grant = {
    object,
    from: (arrayField(object.spec, 'from') ?? []).map((f) => ({
      group: stringField(f, 'group') ?? '',
      kind: stringField(f, 'kind') ?? '',
      namespace: stringField(f, 'namespace') ?? ''
    })),
    to: (arrayField(object.spec, 'to') ?? []).map((t) => {
      const name = stringField(t, 'name')
      return {
        group: stringField(t, 'group') ?? '',
        kind: stringField(t, 'kind') ?? '',
        ...(name ? { name } : {})
      }
    })
  }
  readGrants.set(object, grant)
  return grant
}

export function grantFrom(grant: Grant, route: RouteObject): boolean {
  return grant.from.some(
    (f) =>
      f.group === GATEWAY_GROUP && f.kind === route.kind && f.namespace === route.metadata.namespace
  )
}

/** "HTTPRoute\0team-a": the Routes of one kind and namespace, as grants admit them. */
export const grantSource = (route: RouteObject): string =>
  `${route.kind}\u0000${route.metadata.namespace}`

/** The grantSource of every Route the grant admits (grantFrom true), for an index by it. */
export function grantSources(object: KubeObject): Set<string> {
  const sources = readGrant(object)
    .from.filter((f) => f.group === GATEWAY_GROUP)
    .map((f) => `${f.kind}\u0000${f.namespace}`)
  return new Set(sources)
}

export function grantTo(grant: Grant, ref: BackendRef): boolean {
  return grant.to.some(
    (t) =>
      t.group === ref.group && t.kind === ref.kind && (t.name === undefined || t.name === ref.name)
  )
}

/** The ReferenceGrant among `grants` that lets the Route reference `ref` (cross-namespace), if any. */
export function grantFor(
  grants: KubeObject[],
  route: RouteObject,
  ref: BackendRef
): KubeObject | undefined {
  for (const object of grants) {
    if (object.metadata.namespace !== ref.namespace) continue
    const grant = readGrant(object)
    if (grantFrom(grant, route) && grantTo(grant, ref)) return object
  }
  return undefined
}

/** How a Service backendRef resolves against the Service it names (undefined: none of that name). */
export type ServiceRefState = 'resolves' | 'no-service' | 'external-name' | 'port-unset' | 'no-port'

export function serviceRefState(service: KubeObject | undefined, ref: BackendRef): ServiceRefState {
  if (!service) return 'no-service'
  if (stringField(service.spec, 'type') === 'ExternalName') return 'external-name'
  if (ref.port === undefined) return 'port-unset'
  return servicePortsOf(service).some((p) => p.port === ref.port) ? 'resolves' : 'no-port'
}
