// What diagnosis reads from a Route's spec: hostnames, rules, their filters and backendRefs.
import { routeParentRefs } from '../model/parent-ref.ts'
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

export interface Match {
  field: 'path' | 'header' | 'query' | 'method' | 'gRPC method'
  /** the match type, or the HTTP method for a method match */
  type: string
  /** path value, header or query parameter name, gRPC service/method */
  value: string
}

export interface Rule {
  index: number
  filters: Filter[]
  matches: Match[]
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

function readMatches(raw: unknown): Match[] {
  return (arrayField(raw, 'matches') ?? []).flatMap((match) => {
    if (!isRecord(match)) return []
    const found: Match[] = []
    if (isRecord(match.path)) {
      found.push({
        field: 'path',
        type: stringField(match.path, 'type') ?? 'PathPrefix',
        value: stringField(match.path, 'value') ?? '/'
      })
    }
    for (const field of ['headers', 'queryParams'] as const) {
      for (const item of arrayField(match, field) ?? []) {
        found.push({
          field: field === 'headers' ? 'header' : 'query',
          type: stringField(item, 'type') ?? 'Exact',
          value: stringField(item, 'name') ?? '?'
        })
      }
    }
    if (typeof match.method === 'string')
      found.push({ field: 'method', type: match.method, value: '' })
    if (isRecord(match.method)) {
      const m = match.method
      found.push({
        field: 'gRPC method',
        type: stringField(m, 'type') ?? 'Exact',
        value: `${stringField(m, 'service') ?? '*'}/${stringField(m, 'method') ?? '*'}`
      })
    }
    return found
  })
}

/** "path PathPrefix /api", "header x-env Exact", "method GET" */
export function describeMatch(match: Match): string {
  if (match.field === 'path') return `path ${match.type} ${match.value}`
  if (match.field === 'method') return `method ${match.type}`
  return `${match.field} ${match.value} ${match.type}`
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

/**
 * Rules that send nowhere: no backendRefs (a mirror does not count) and no RequestRedirect. Gateway
 * API allows them; the data plane answers their requests with 500.
 */
export function emptyRules(route: RouteObject): Rule[] {
  return routeRules(route).filter(
    (rule) =>
      rule.backendRefs.every((ref) => ref.where.includes('RequestMirror')) &&
      !rule.filters.some((f) => f.type === 'RequestRedirect')
  )
}

/** The message is about rules without backendRefs (Contour: "At least one Spec.Rules.BackendRef must be specified.") and the Route has such rules. */
export function reportsEmptyRules(message: string | undefined, route: RouteObject): boolean {
  if (!message) return false
  const about =
    /\b(at least one|no|without|missing|empty)\b[^.]{0,40}backend/i.test(message) ||
    /backend\s*refs?\b[^.]{0,30}(must be specified|required|empty|missing)/i.test(message)
  return about && emptyRules(route).length > 0
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

/** Namespaces whose objects can explain these Routes: their own, their parents' and their backends'. */
export function namespacesToRead(routes: RouteObject[]): string[] {
  const out = new Set<string>()
  for (const route of routes) {
    out.add(route.metadata.namespace)
    for (const ref of routeParentRefs(route)) out.add(ref.namespace)
    for (const ref of routeBackendRefs(route)) out.add(ref.namespace)
  }
  return [...out].sort()
}
