// What diagnosis reads from a Route's spec: hostnames, rules, their filters and backendRefs.
import type { RouteObject } from '../model/types.ts'
import { arrayField, integerField, isRecord, stringField } from '../model/unknown.ts'

export interface BackendRef {
  /** "rule 0 backendRef 1", "rule 2 RequestMirror filter" */
  where: string
  rule: number
  group: string
  kind: string
  name: string
  namespace: string
  port?: number
}

export interface Filter {
  where: string
  type: string
  /** group/kind of an ExtensionRef filter */
  extensionRef?: { group: string; kind: string; name: string }
}

export interface Rule {
  index: number
  filters: Filter[]
  /** match types in use: "path PathPrefix", "header Exact", "method GET" */
  matches: string[]
  backendRefs: BackendRef[]
}

export function routeHostnames(route: RouteObject): string[] {
  return (arrayField(route.spec, 'hostnames') ?? []).filter(
    (h): h is string => typeof h === 'string'
  )
}

export function isServiceRef(ref: { group: string; kind: string }): boolean {
  return ref.group === '' && ref.kind === 'Service'
}

function readBackendRef(
  raw: unknown,
  where: string,
  rule: number,
  routeNamespace: string
): BackendRef | undefined {
  const name = stringField(raw, 'name')
  if (!name) return undefined
  const ref: BackendRef = {
    where,
    rule,
    group: stringField(raw, 'group') ?? '',
    kind: stringField(raw, 'kind') || 'Service',
    name,
    namespace: stringField(raw, 'namespace') || routeNamespace
  }
  const port = integerField(raw, 'port')
  if (port !== undefined) ref.port = port
  return ref
}

function readFilter(raw: unknown, where: string): Filter | undefined {
  const type = stringField(raw, 'type')
  if (!type || !isRecord(raw)) return undefined
  const filter: Filter = { where, type }
  const ext = raw.extensionRef
  if (type === 'ExtensionRef' && isRecord(ext)) {
    filter.extensionRef = {
      group: stringField(ext, 'group') ?? '',
      kind: stringField(ext, 'kind') ?? '',
      name: stringField(ext, 'name') ?? ''
    }
  }
  return filter
}

function readMatches(raw: unknown): string[] {
  return (arrayField(raw, 'matches') ?? []).flatMap((match) => {
    const found: string[] = []
    const path = isRecord(match) ? match.path : undefined
    if (isRecord(path))
      found.push(
        `path ${stringField(path, 'type') ?? 'PathPrefix'} ${stringField(path, 'value') ?? '/'}`
      )
    for (const header of arrayField(match, 'headers') ?? []) {
      found.push(
        `header ${stringField(header, 'name') ?? '?'} ${stringField(header, 'type') ?? 'Exact'}`
      )
    }
    for (const query of arrayField(match, 'queryParams') ?? []) {
      found.push(
        `query ${stringField(query, 'name') ?? '?'} ${stringField(query, 'type') ?? 'Exact'}`
      )
    }
    const method = isRecord(match) ? match.method : undefined
    if (typeof method === 'string') found.push(`method ${method}`)
    if (isRecord(method))
      found.push(
        `gRPC method ${stringField(method, 'service') ?? '*'}/${stringField(method, 'method') ?? '*'}`
      )
    return found
  })
}

export function routeRules(route: RouteObject): Rule[] {
  const namespace = route.metadata.namespace
  return (arrayField(route.spec, 'rules') ?? []).map((raw, index) => {
    const filters: Filter[] = []
    const backendRefs: BackendRef[] = []
    for (const [f, rawFilter] of (arrayField(raw, 'filters') ?? []).entries()) {
      const filter = readFilter(rawFilter, `rule ${index} filter ${f}`)
      if (!filter) continue
      filters.push(filter)
      const mirror = isRecord(rawFilter) ? rawFilter.requestMirror : undefined
      const mirrored = readBackendRef(
        isRecord(mirror) ? mirror.backendRef : undefined,
        `rule ${index} RequestMirror filter`,
        index,
        namespace
      )
      if (mirrored) backendRefs.push(mirrored)
    }
    for (const [b, rawRef] of (arrayField(raw, 'backendRefs') ?? []).entries()) {
      const ref = readBackendRef(rawRef, `rule ${index} backendRef ${b}`, index, namespace)
      if (ref) backendRefs.push(ref)
      for (const [f, rawFilter] of (arrayField(rawRef, 'filters') ?? []).entries()) {
        const filter = readFilter(rawFilter, `rule ${index} backendRef ${b} filter ${f}`)
        if (filter) filters.push(filter)
      }
    }
    return { index, filters, matches: readMatches(raw), backendRefs }
  })
}

export function routeBackendRefs(route: RouteObject): BackendRef[] {
  return routeRules(route).flatMap((rule) => rule.backendRefs)
}

/**
 * The rule indices a controller message names, in the shapes controllers write them:
 * `spec.rules[2]` (NGF), `route rule 1` (Envoy Gateway), `Dropped Rule(s) [0 2]` / `[0, 2]`.
 */
export function rulesNamedIn(message: string | undefined): number[] {
  if (!message) return []
  const found = new Set<number>()
  for (const m of message.matchAll(/rules\[(\d+)\]|\brule (\d+)/gi)) found.add(Number(m[1] ?? m[2]))
  for (const m of message.matchAll(/Rule\(?s?\)?\s*\[([\d\s,]+)\]/gi)) {
    for (const n of (m[1] ?? '').split(/[\s,]+/)) if (n !== '') found.add(Number(n))
  }
  return [...found].sort((a, b) => a - b)
}

/** "shop/cart:8080" */
export function describeBackendRef(ref: BackendRef): string {
  const kind = isServiceRef(ref) ? 'Service' : `${ref.kind}${ref.group ? `.${ref.group}` : ''}`
  return `${kind} ${ref.namespace}/${ref.name}${ref.port === undefined ? '' : `:${ref.port}`}`
}
