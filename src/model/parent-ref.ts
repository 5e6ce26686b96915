import { EXPERIMENTAL_GROUP, GATEWAY_GROUP } from './types.ts'
import type { ParentRef } from './types.ts'
import { integerField, stringField } from './unknown.ts'

/**
 * The core group is spelled `""` by Gateway API and `core` by some meshes (Linkerd writes it in
 * status): one group. An omitted group is the CRD default, also for kind Service.
 */
function normalizeGroup(group: string | undefined): string {
  if (group === undefined) return GATEWAY_GROUP
  return group === 'core' ? '' : group
}

/**
 * Applies the CRD defaults the API server would apply (group, kind) and the godoc's namespace rule.
 * An explicit `group: ""` (or `core`) names the core group and is ''.
 */
export function normalizeParentRef(raw: unknown, routeNamespace: string): ParentRef {
  const ref: ParentRef = {
    group: normalizeGroup(stringField(raw, 'group')),
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
  if (kind === 'Service') return ''
  return kind === 'XListenerSet' ? EXPERIMENTAL_GROUP : GATEWAY_GROUP
}

/** "infra/edge", "edge#https" (in the Route's namespace), "Service default/api:8080", "Service.example.com default/api". */
export function formatParentRef(ref: ParentRef, routeNamespace?: string): string {
  let kind = ''
  if (ref.group !== expectedGroup(ref.kind)) kind = `${ref.kind}.${ref.group || 'core'} `
  else if (ref.kind !== 'Gateway') kind = `${ref.kind} `
  const name = ref.namespace === routeNamespace ? ref.name : `${ref.namespace}/${ref.name}`
  const section = ref.sectionName === undefined ? '' : `#${ref.sectionName}`
  const port = ref.port === undefined ? '' : `:${ref.port}`
  return `${kind}${name}${section}${port}`
}
