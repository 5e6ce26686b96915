// A Route's spec, read once into typed values with the API server's defaults filled in: parentRefs
// (normalized), hostnames, rules with their matches, filters and backendRefs. Every reader (the
// verdicts, diagnosis, the traffic probe, predict) shares the one reading of each Route object.
import { normalizeParentRef } from './parent-ref.ts'
import type { ParentRef, RouteObject } from './types.ts'
import { arrayField, integerField, isRecord, stringField } from './unknown.ts'

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

/** A header or query parameter match. */
export interface ValueMatch {
  name: string
  /** Exact unless given */
  type: string
  value: string
}

/**
 * One entry of a rule's matches, defaults filled: an HTTPRoute match always has a path (PathPrefix /
 * unless given); a rule without matches has one match that takes every request.
 */
export interface RequestMatch {
  path?: { type: string; value: string }
  headers: ValueMatch[]
  queryParams: ValueMatch[]
  /** HTTPRoute: the HTTP method */
  method?: string
  /** GRPCRoute: the gRPC method match */
  grpcMethod?: { type: string; service?: string; method?: string }
}

export interface Rule {
  index: number
  filters: Filter[]
  /** every condition of every match, flattened: what a message or a title names */
  matches: Match[]
  requestMatches: RequestMatch[]
  backendRefs: BackendRef[]
}

export interface RouteSpec {
  parentRefs: ParentRef[]
  hostnames: string[]
  rules: Rule[]
  /** every rule's backendRefs (and RequestMirror targets), in order */
  backendRefs: BackendRef[]
}

// Route objects are never changed once read (a new event is a new object), so one reading serves all.
const read = new WeakMap<RouteObject, RouteSpec>()

const NOTHING: RouteSpec = { parentRefs: [], hostnames: [], rules: [], backendRefs: [] }

export function routeSpec(route: RouteObject): RouteSpec {
  // what is not an object (a dump's garbage) has no spec to read
  if (!isRecord(route)) return NOTHING
  let spec = read.get(route)
  if (spec === undefined) {
    const rules = readRules(route)
    spec = {
      parentRefs: readParentRefs(route),
      hostnames: (arrayField(route.spec, 'hostnames') ?? []).filter(
        (h): h is string => typeof h === 'string'
      ),
      rules,
      backendRefs: rules.flatMap((rule) => rule.backendRefs)
    }
    read.set(route, spec)
  }
  return spec
}

/** The Route's spec.parentRefs, normalized; entries that are not objects are skipped. */
export function routeParentRefs(route: RouteObject): ParentRef[] {
  return routeSpec(route).parentRefs
}

function readParentRefs(route: RouteObject): ParentRef[] {
  const spec: unknown = isRecord(route) ? route.spec : undefined
  return (arrayField(spec, 'parentRefs') ?? [])
    .filter(isRecord)
    .map((raw) => normalizeParentRef(raw, stringField(route.metadata, 'namespace') ?? ''))
}

export function routeHostnames(route: RouteObject): string[] {
  return routeSpec(route).hostnames
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
  return routeSpec(route).rules
}

function readValueMatches(raw: unknown, field: 'headers' | 'queryParams'): ValueMatch[] {
  return (arrayField(raw, field) ?? []).filter(isRecord).map((item) => ({
    name: stringField(item, 'name') ?? '',
    type: stringField(item, 'type') ?? 'Exact',
    value: stringField(item, 'value') ?? ''
  }))
}

function readRequestMatches(route: RouteObject, rule: unknown): RequestMatch[] {
  const raw = (arrayField(rule, 'matches') ?? []).filter(isRecord)
  const http = route.kind === 'HTTPRoute'
  return (raw.length > 0 ? raw : [{}]).map((match) => {
    const out: RequestMatch = {
      headers: readValueMatches(match, 'headers'),
      queryParams: readValueMatches(match, 'queryParams')
    }
    if (isRecord(match.path) || http) {
      const path = isRecord(match.path) ? match.path : {}
      out.path = {
        type: stringField(path, 'type') ?? 'PathPrefix',
        value: stringField(path, 'value') ?? '/'
      }
    }
    if (typeof match.method === 'string') out.method = match.method
    if (isRecord(match.method)) {
      const m = match.method
      out.grpcMethod = {
        type: stringField(m, 'type') ?? 'Exact',
        ...(stringField(m, 'service') === undefined ? {} : { service: stringField(m, 'service') }),
        ...(stringField(m, 'method') === undefined ? {} : { method: stringField(m, 'method') })
      }
    }
    return out
  })
}

function readRules(route: RouteObject): Rule[] {
  const namespace = stringField(route.metadata, 'namespace') ?? ''
  return (arrayField(route.spec, 'rules') ?? []).map((raw, index) => {
    const filters: Filter[] = []
    const backendRefs: BackendRef[] = []
    // index loops, not entries(): an iterator and a pair per element, for every Route of a dump
    const rawFilters = arrayField(raw, 'filters') ?? []
    for (let f = 0; f < rawFilters.length; f++) {
      const rawFilter = rawFilters[f]
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
    const rawRefs = arrayField(raw, 'backendRefs') ?? []
    for (let b = 0; b < rawRefs.length; b++) {
      const rawRef = rawRefs[b]
      const ref = readBackendRef(rawRef, `rule ${index} backendRef ${b}`, index, namespace)
      if (ref) backendRefs.push(ref)
      const refFilters = arrayField(rawRef, 'filters') ?? []
      for (let f = 0; f < refFilters.length; f++) {
        const filter = readFilter(refFilters[f], `rule ${index} backendRef ${b} filter ${f}`)
        if (filter) filters.push(filter)
      }
    }
    return {
      index,
      filters,
      matches: readMatches(raw),
      requestMatches: readRequestMatches(route, raw),
      backendRefs
    }
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
  return routeSpec(route).backendRefs
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
