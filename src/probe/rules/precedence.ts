// Which HTTPRoute a Gateway gives a probe request to, by the Gateway API's precedence (pure): an
// answer that another Route's backend gives looks "routed", yet the Route being gated does not serve
// that request. Hostname first (characters of a matching exact hostname, then of any matching one),
// then the match (Exact path, longest prefix, method, most headers, most query parameters), then the
// oldest Route, then namespace/name in alphabetical order.
import { hostnamesIntersect } from '../../rules/hostnames.ts'
import {
  routeHostnames,
  routeParentRefs,
  routeRules,
  type RequestMatch
} from '../../model/route-spec.ts'
import { readEntries } from '../../model/entries.ts'
import { assignEntries } from '../../model/matching.ts'
import { olderRouteFirst, routeId, routeRef } from '../../model/route-id.ts'
import type { ParentRef, RouteObject } from '../../model/types.ts'
import type { ProbeRequest } from './plan-requests.ts'

interface Claim {
  route: RouteObject
  key: number[]
  describe: string
}

/**
 * The Route that wins `request` over `own` on the Gateway `parent` names, with why; undefined when
 * `own` wins or no other Route claims it. Only Routes whose status says the Gateway accepted them
 * compete; matches with regular expressions are not judged (a note says so where it matters).
 */
export function winningRoute(
  request: ProbeRequest,
  own: RouteObject,
  parent: ParentRef,
  others: RouteObject[]
): { route: RouteObject; why: string } | undefined {
  const mine = bestClaim(own, request)
  if (!mine) return undefined
  let best: Claim = mine
  for (const other of others) {
    if (other.kind !== 'HTTPRoute' || sameRoute(other, own)) continue
    if (!attached(other, parent, request)) continue
    const claim = bestClaim(other, request)
    if (claim && beats(claim, best)) best = claim
  }
  if (best === mine) return undefined
  return {
    route: best.route,
    why: `${routeId(routeRef(best.route))} claims it with ${best.describe}, which takes precedence over this Route's ${mine.describe}`
  }
}

function sameRoute(a: RouteObject, b: RouteObject): boolean {
  return a.metadata.namespace === b.metadata.namespace && a.metadata.name === b.metadata.name
}

/**
 * Attached to the same Gateway, by a parentRef that selects the probed listener (its sectionName and
 * port where it sets them), and accepted there by a fresh condition: read as the verdict reads them
 * (normalized parentRefs, entries matched to them, stale conditions not counted).
 */
function attached(route: RouteObject, parent: ParentRef, request: ProbeRequest): boolean {
  const refs = routeParentRefs(route).filter(
    (ref) =>
      ref.group === parent.group &&
      ref.kind === parent.kind &&
      ref.namespace === parent.namespace &&
      ref.name === parent.name &&
      (ref.sectionName === undefined || ref.sectionName === request.listener) &&
      (ref.port === undefined || ref.port === request.port)
  )
  if (refs.length === 0) return false
  const entries = readEntries(route.status, route.metadata.namespace, route.metadata.generation)
  // the owner of each entry is not known here: entries that carry Accepted are judged, as rule 3 says
  const { owned } = assignEntries(refs, entries, (_ref, entry) =>
    entry.conditions.some((c) => c.type === 'Accepted')
  )
  return owned.some((list) =>
    list.some((entry) =>
      entry.conditions.some((c) => c.type === 'Accepted' && c.status === 'True' && c.fresh === true)
    )
  )
}

function beats(a: Claim, b: Claim): boolean {
  for (let i = 0; i < a.key.length; i++) {
    const diff = (a.key[i] ?? 0) - (b.key[i] ?? 0)
    if (diff !== 0) return diff > 0
  }
  return olderRouteFirst(a.route, b.route) < 0
}

/** The route's highest-precedence match of the request, if any. */
function bestClaim(route: RouteObject, request: ProbeRequest): Claim | undefined {
  const host = hostKey(route, request.host)
  if (!host) return undefined
  // a Route without rules has the API server's default one: every request under /
  const rules = routeRules(route)
  const matches = rules.length === 0 ? [ANY_PATH] : rules.flatMap((rule) => rule.requestMatches)
  let best: Claim | undefined
  for (const match of matches) {
    const key = matchKey(match, request)
    if (!key) continue
    const claim = { route, key: [...host.key, ...key.key], describe: key.describe }
    if (!best || beats(claim, best)) best = claim
  }
  return best
}

const ANY_PATH: RequestMatch = {
  path: { type: 'PathPrefix', value: '/' },
  headers: [],
  queryParams: []
}

function hostKey(route: RouteObject, host: string): { key: number[] } | undefined {
  const names = routeHostnames(route)
  if (names.length === 0) return { key: [0, 0] }
  const covering = names.filter((n) => hostnamesIntersect(n, host))
  if (covering.length === 0) return undefined
  const exact = Math.max(0, ...covering.filter((n) => !n.startsWith('*')).map((n) => n.length))
  return { key: [exact, Math.max(...covering.map((n) => n.length))] }
}

function matchKey(
  match: RequestMatch,
  request: ProbeRequest
): { key: number[]; describe: string } | undefined {
  const [path = '/', query = ''] = request.path.split('?')
  const { type, value } = match.path ?? ANY_PATH.path!
  const prefix = value.replace(/\/+$/, '')
  if (type === 'Exact' ? path !== value : type !== 'PathPrefix') return undefined
  if (type === 'PathPrefix' && prefix !== '' && path !== prefix && !path.startsWith(`${prefix}/`)) {
    return undefined
  }
  const { method, headers, queryParams: queries } = match
  if (method !== undefined && method !== request.method) return undefined
  for (const h of headers) {
    if (h.type !== 'Exact') return undefined
    if (request.headers[h.name.toLowerCase()] !== h.value) return undefined
  }
  const params = new URLSearchParams(query)
  for (const q of queries) {
    if (q.type !== 'Exact') return undefined
    if (params.get(q.name) !== q.value) return undefined
  }
  const describe = [
    `${type === 'Exact' ? 'Exact path' : 'path prefix'} ${value}`,
    method && `method ${method}`,
    headers.length > 0 && `${headers.length} header match${headers.length === 1 ? '' : 'es'}`,
    queries.length > 0 && `${queries.length} query match${queries.length === 1 ? '' : 'es'}`
  ]
    .filter(Boolean)
    .join(', ')
  return {
    key: [
      type === 'Exact' ? 1 : 0,
      type === 'Exact' ? 0 : prefix.length,
      method ? 1 : 0,
      headers.length,
      queries.length
    ],
    describe
  }
}
