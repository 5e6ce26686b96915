// Which requests prove that a parent serves a Route (pure): the Gateway's address, the HTTP and HTTPS
// listeners the parentRef selects that admit the Route, each Route hostname a listener admits (a
// wildcard made concrete), and one request per rule from its first match that a request can satisfy.
import { hostnamesIntersect } from '../../rules/hostnames.ts'
import { selectListeners, takesKind } from '../../rules/listener-selection.ts'
import { routeHostnames, routeRules, type RequestMatch } from '../../model/route-spec.ts'
import { findGateway, listenerStatusesOf, listenersOf } from '../../rules/world.ts'
import type { Listener } from '../../rules/world.ts'
import { GATEWAY_GROUP } from '../../model/types.ts'
import type { KubeObject, ParentRef, RouteObject, World } from '../../model/types.ts'
import { arrayField, stringField } from '../../model/unknown.ts'
import { refusedTarget, type AddressOrigin, type GuardPolicy } from './target-guard.ts'

export interface ProbeRequest {
  listener: string
  scheme: 'http' | 'https'
  /** where the connection goes: the Gateway's address (or gateway-address) */
  address: string
  /** who chose the address: the target guard trusts the workflow's own choice further */
  origin: AddressOrigin
  port: number
  /** the Host header */
  host: string
  /** the TLS server name (SNI); undefined for plain HTTP */
  servername?: string
  method: string
  /** path and query string */
  path: string
  headers: Record<string, string>
  /** the rule the request is built from; undefined for a no-route request */
  rule?: number
  /** false for the no-route requests only: their answer is compared with, never taken as proof */
  verifyTls: boolean
  /** another Route takes this request by precedence, and why: its answer is not this Route's */
  shadowedBy?: string
}

export interface ListenerTarget {
  listener: string
  requests: ProbeRequest[]
  /**
   * Two requests for a hostname and path that no Route claims, each with its own token, so that an
   * answer that echoes the request can be told from a fixed one. Undefined when neither the listener
   * nor the Route names a hostname: then every hostname is this Route's and there is no such answer.
   */
  noRoute?: [ProbeRequest, ProbeRequest]
}

export type ParentPlan =
  | {
      targets: ListenerTarget[]
      /** rules no request can be built for, and why */ skipped: string[]
    }
  | { notProbed: string; cause: NotProbedCause }

/**
 * refused: the address is one the target guard never sends to (a metadata service, link-local, …);
 * unsupported: a Route kind or parent no request is built for yet (the status verdict stands);
 * no-address: the Gateway has no address yet (it may get one while the gate waits); no-gateway: it
 * could not be read; unbuildable: no listener or rule a request can be built for; not-started: the
 * run ended before every status was ready.
 */
export type NotProbedCause =
  'refused' | 'unsupported' | 'no-address' | 'no-gateway' | 'unbuildable' | 'not-started'

export interface PlanOptions {
  /** gateway-address: used instead of the Gateway's status.addresses */
  gatewayAddress?: string
  /** a random token that makes the no-route hostname and path unique to this run */
  token: string
  policy: GuardPolicy
}

/** The label that stands for the `*` of a wildcard hostname. */
export const WILDCARD_LABEL = 'route-gate-probe'
const NO_ROUTE_DOMAIN = 'invalid'
/** enough for a Route with a few hostnames and rules on two listeners; more only costs time */
export const MAX_REQUESTS_PER_PARENT = 32

type NotProbed = Extract<ParentPlan, { notProbed: string }>

/** What the requests to every listener share: where the connection goes and how. */
type RequestBase = Pick<ProbeRequest, 'listener' | 'scheme' | 'address' | 'origin' | 'port'>

/**
 * The requests to send for one parent of a Route, or why none are sent. Each check names the first
 * thing missing, so that the report says what to fix rather than only that nothing was probed.
 */
export function planParent(
  route: RouteObject,
  ref: ParentRef,
  world: World,
  options: PlanOptions
): ParentPlan {
  const unsupported = unsupportedParent(route, ref)
  if (unsupported !== undefined) return unsupported
  const gateway = findGateway(world, ref.namespace, ref.name)
  if (!gateway) {
    return {
      notProbed: `Gateway ${ref.namespace}/${ref.name} could not be read`,
      cause: 'no-gateway'
    }
  }
  const destination = destinationOf(gateway, ref, options)
  if ('notProbed' in destination) return destination
  const listeners = probedListeners(gateway, ref, route)
  if (listeners.length === 0) {
    return {
      notProbed: `no HTTP or HTTPS listener of Gateway ${ref.namespace}/${ref.name} that this parentRef selects admits the Route`,
      cause: 'unbuildable'
    }
  }
  const { matches, skipped } = ruleMatches(route)
  if (matches.length === 0) {
    return {
      notProbed: `no rule has a match a request can be built for (${skipped.join('; ')})`,
      cause: 'unbuildable'
    }
  }
  // one budget across listeners: the cap is on what a parent costs, however its listeners split it
  const budget = { left: MAX_REQUESTS_PER_PARENT }
  const targets: ListenerTarget[] = []
  for (const listener of listeners) {
    const target = listenerTarget(listener, route, matches, destination, budget, options.token)
    if (target === undefined) break
    targets.push(target)
  }
  if (budget.left < 0) {
    skipped.push(`requests beyond ${MAX_REQUESTS_PER_PARENT} per parent were not sent`)
  }
  return { targets, skipped }
}

/** A Route kind or parent no request is built for yet: the status verdict stands alone. */
function unsupportedParent(route: RouteObject, ref: ParentRef): NotProbed | undefined {
  if (route.kind !== 'HTTPRoute') {
    return {
      notProbed: `${route.kind} traffic is not probed yet: only HTTPRoute requests are built and judged`,
      cause: 'unsupported'
    }
  }
  if (ref.kind !== 'Gateway' || ref.group !== GATEWAY_GROUP) {
    return {
      notProbed: `the parent is a ${ref.kind}, not a Gateway: it has no listeners to send to`,
      cause: 'unsupported'
    }
  }
  return undefined
}

/**
 * The address to send to and who chose it, judged by the target guard before any request is built:
 * the plan never names an address the probe must not reach.
 */
function destinationOf(
  gateway: KubeObject,
  ref: ParentRef,
  options: PlanOptions
): Pick<ProbeRequest, 'address' | 'origin'> | NotProbed {
  const address = options.gatewayAddress ?? gatewayAddressOf(gateway)
  if (address === undefined) {
    return {
      notProbed: `Gateway ${ref.namespace}/${ref.name} has no address in status.addresses; give one with gateway-address`,
      cause: 'no-address'
    }
  }
  const origin: AddressOrigin = options.gatewayAddress === undefined ? 'status' : 'input'
  const refusal = refusedTarget(address, origin, options.policy)
  if (refusal !== undefined) {
    return { notProbed: `not probed: ${refusal}`, cause: 'refused' }
  }
  return { address, origin }
}

/** The selected listeners whose answer can prove this Route: HTTP or HTTPS, and admitting it. */
function probedListeners(gateway: KubeObject, ref: ParentRef, route: RouteObject): Listener[] {
  return selectListeners(listenersOf(gateway), ref).filter(
    (l) =>
      (l.protocol === 'HTTP' || l.protocol === 'HTTPS') &&
      l.port !== undefined &&
      takesKind(l, listenerStatusesOf(gateway), 'HTTPRoute') &&
      admitsNamespace(l, gateway, route) &&
      hostsOn(l, route).length > 0
  )
}

/**
 * One listener's requests, each host with each rule's match, while the budget lasts. Undefined when
 * the budget was spent before this listener: a target with no requests could prove nothing.
 */
function listenerTarget(
  listener: Listener,
  route: RouteObject,
  matches: RuleMatch[],
  destination: Pick<ProbeRequest, 'address' | 'origin'>,
  budget: { left: number },
  token: string
): ListenerTarget | undefined {
  const scheme = listener.protocol === 'HTTPS' ? 'https' : 'http'
  const base: RequestBase = {
    listener: listener.name,
    scheme,
    address: destination.address,
    origin: destination.origin,
    port: listener.port ?? 0
  }
  const requests: ProbeRequest[] = []
  for (const host of hostsOn(listener, route)) {
    for (const match of matches) {
      if (budget.left-- <= 0) break
      requests.push({
        ...base,
        host,
        ...(scheme === 'https' && { servername: host }),
        method: match.method,
        path: match.path,
        headers: match.headers,
        rule: match.rule,
        verifyTls: true
      })
    }
  }
  if (requests.length === 0) return undefined
  // a listener and Route that name no hostname give every Host to this Route: nothing to compare with
  const claimsEveryHost = listener.hostname === undefined && routeHostnames(route).length === 0
  const servername = requests[0]?.servername
  return {
    listener: listener.name,
    requests,
    ...(!claimsEveryHost && {
      noRoute: [
        noRouteRequest(base, servername, token, 'a'),
        noRouteRequest(base, servername, token, 'b')
      ]
    })
  }
}

/** A request for a hostname and path no Route claims, unique to this run by its token. */
function noRouteRequest(
  base: RequestBase,
  servername: string | undefined,
  token: string,
  suffix: string
): ProbeRequest {
  const unique = `route-gate-no-route-${token}${suffix}`
  return {
    ...base,
    host: `${unique}.${NO_ROUTE_DOMAIN}`,
    // same server name as the real requests: the same TLS set-up, only the Host differs
    ...(base.scheme === 'https' && { servername }),
    method: 'GET',
    path: `/${unique}`,
    headers: {},
    verifyTls: false
  }
}

/** The first address in status.addresses (IPAddress or Hostname; other types name no host). */
export function gatewayAddressOf(gateway: KubeObject): string | undefined {
  for (const raw of arrayField(gateway.status, 'addresses') ?? []) {
    const type = stringField(raw, 'type') ?? 'IPAddress'
    const value = stringField(raw, 'value')
    if (value && (type === 'IPAddress' || type === 'Hostname')) return value
  }
  return undefined
}

function admitsNamespace(listener: Listener, gateway: KubeObject, route: RouteObject): boolean {
  // Selector needs the namespace's labels; a refusal then shows as a not-serving answer, never as
  // a false "serving".
  return listener.from !== 'Same' || gateway.metadata.namespace === route.metadata.namespace
}

/** The Host headers to send on a listener: each Route hostname it admits, made concrete. */
export function hostsOn(listener: Pick<Listener, 'hostname'>, route: RouteObject): string[] {
  const own = routeHostnames(route)
  const listenerHost = listener.hostname
  if (own.length === 0) return [concrete(listenerHost ?? `${WILDCARD_LABEL}.${NO_ROUTE_DOMAIN}`)]
  const hosts = own
    .filter((h) => listenerHost === undefined || hostnamesIntersect(h, listenerHost))
    .map((h) => concrete(narrower(h, listenerHost)))
  return [...new Set(hosts)]
}

/** Of two intersecting hostnames, the one that names fewer hosts. */
function narrower(routeHost: string, listenerHost: string | undefined): string {
  if (listenerHost === undefined || !routeHost.startsWith('*.')) return routeHost
  if (!listenerHost.startsWith('*.')) return listenerHost
  return listenerHost.length > routeHost.length ? listenerHost : routeHost
}

function concrete(hostname: string): string {
  const lower = hostname.toLowerCase()
  return lower.startsWith('*.') ? `${WILDCARD_LABEL}${lower.slice(1)}` : lower
}

export interface RuleMatch {
  rule: number
  method: string
  path: string
  headers: Record<string, string>
}

/**
 * One request per rule, from its first match that a request can satisfy (regular expressions
 * cannot be turned into a request without guessing). A rule without matches matches every request.
 */
export function ruleMatches(route: RouteObject): { matches: RuleMatch[]; skipped: string[] } {
  const rules = routeRules(route)
  const matches: RuleMatch[] = []
  const skipped: string[] = []
  // a Route without rules has the API server's default one: every request under /
  const candidates = rules.length === 0 ? [[EVERY_REQUEST]] : rules.map((r) => r.requestMatches)
  candidates.forEach((requestMatches, index) => {
    const built = requestMatches.map((m) => requestFor(m, index)).find((m) => m !== undefined)
    if (built) matches.push(built)
    else skipped.push(`rule ${index}: only regular-expression matches`)
  })
  return { matches, skipped }
}

const EVERY_REQUEST: RequestMatch = {
  path: { type: 'PathPrefix', value: '/' },
  headers: [],
  queryParams: []
}

function requestFor(match: RequestMatch, rule: number): RuleMatch | undefined {
  const { type, value } = match.path ?? EVERY_REQUEST.path!
  if (type !== 'Exact' && type !== 'PathPrefix') return undefined
  const headers: Record<string, string> = {}
  for (const h of match.headers) {
    if (h.type !== 'Exact' || h.name === '') return undefined
    headers[h.name.toLowerCase()] = h.value
  }
  const query = new URLSearchParams()
  for (const q of match.queryParams) {
    if (q.type !== 'Exact' || q.name === '') return undefined
    query.append(q.name, q.value)
  }
  const search = query.size > 0 ? `?${query.toString()}` : ''
  return { rule, method: match.method ?? 'GET', path: `${value}${search}`, headers }
}

/** "https://shop.example.com:8443/cart" as the report shows a request. */
export function requestUrl(request: ProbeRequest): string {
  return `${request.scheme}://${request.host}:${request.port}${request.path}`
}
