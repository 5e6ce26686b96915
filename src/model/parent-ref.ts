import { GATEWAY_GROUP } from './types.ts'
import type { ParentRef, RouteObject } from './types.ts'
import { arrayField, integerField, isRecord, stringField } from './unknown.ts'

/**
 * Applies the CRD defaults the API server would apply (group, kind) and the godoc's namespace rule.
 * An explicit `group: ""` names the core group and stays ''; `group: core` is kept as written so the
 * evaluation can flag it.
 */
export function normalizeParentRef(raw: unknown, routeNamespace: string): ParentRef {
  const ref: ParentRef = {
    group: stringField(raw, 'group') ?? GATEWAY_GROUP,
    kind: stringField(raw, 'kind') || 'Gateway',
    namespace: stringField(raw, 'namespace') || routeNamespace,
    name: stringField(raw, 'name') ?? ''
  }
  const sectionName = stringField(raw, 'sectionName')
  if (sectionName) ref.sectionName = sectionName
  const port = integerField(raw, 'port')
  if (port !== undefined) ref.port = port
  return ref
}

export function parentRefKey(ref: ParentRef): string {
  return JSON.stringify([
    ref.group,
    ref.kind,
    ref.namespace,
    ref.name,
    ref.sectionName ?? null,
    ref.port ?? null
  ])
}

/** The group each well-known parent kind lives in; another group is shown, since it is usually a mistake. */
function expectedGroup(kind: string): string {
  return kind === 'Service' ? '' : GATEWAY_GROUP
}

/** "infra/edge", "edge#https" (in the Route's namespace), "Service default/api:8080", "Service.core default/api". */
export function formatParentRef(ref: ParentRef, routeNamespace?: string): string {
  let kind = ''
  if (ref.group !== expectedGroup(ref.kind)) kind = `${ref.kind}.${ref.group || 'core'} `
  else if (ref.kind !== 'Gateway') kind = `${ref.kind} `
  const name = ref.namespace === routeNamespace ? ref.name : `${ref.namespace}/${ref.name}`
  const section = ref.sectionName === undefined ? '' : `#${ref.sectionName}`
  const port = ref.port === undefined ? '' : `:${ref.port}`
  return `${kind}${name}${section}${port}`
}

/** The Route's spec.parentRefs, normalized; entries that are not objects are skipped. */
export function routeParentRefs(route: RouteObject): ParentRef[] {
  const spec: unknown = isRecord(route) ? route.spec : undefined
  return (arrayField(spec, 'parentRefs') ?? [])
    .filter(isRecord)
    .map((raw) => normalizeParentRef(raw, route.metadata.namespace))
}
