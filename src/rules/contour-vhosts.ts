// Contour's own rule for Routes that ask for the same thing (internal/dag/gatewayapi_processor.go,
// v1.33): per Gateway, HTTPRoutes and then GRPCRoutes are taken oldest first (creationTimestamp, then
// namespace/name). Each rule's matches enter the virtual host of every hostname Contour computes for
// the listener, on the Envoy listener of the listener's port, unless one of them is already there for
// a Route of the same kind. Such a rule is dropped: all rules dropped on a listener give
// Accepted=False RuleMatchConflict, some give PartiallyInvalid RuleMatchPartiallyConflict.
//
// One pass over the Gateway's Routes with a map lookup per rule, match and hostname: linear in the
// Routes, never a comparison of every pair. Where a Route's attachment is undecided (its namespace's
// labels are not in the source), what it holds is "maybe", and so is any conflict with it. Two Routes
// that both arrive with the pull request have no creationTimestamp yet: which one Contour keeps is
// not known before they are created, so both are unsure.
import { describeRequestMatch } from './conflicts.ts'
import { refersToGateway } from '../model/owner.ts'
import { olderRouteFirst } from '../model/route-id.ts'
import { routeHostnames, routeParentRefs, routeRules } from '../model/route-spec.ts'
import type { RequestMatch, Rule, ValueMatch } from '../model/route-spec.ts'
import type { Listener } from './world.ts'
import type { ParentRef, RouteObject } from '../model/types.ts'

/** The listeners a parentRef attaches through, as the listener rules decide it. */
export interface Attachment {
  listeners: readonly Listener[]
  /** some listener's admission is undecided: what the Route holds through it is not known */
  undecided: boolean
}

/** Another Route (or this one, through another listener on the same port) that holds a match first. */
export interface Holding {
  route: RouteObject
  hostname: string
  /** the match as a reader names it: "path PathPrefix /api, header x-env Exact staging" */
  match: string
  listener: string
}

export type VhostOutcome =
  | { kind: 'clear' }
  /** no hostname of the Route is left to any listener it attaches through (Contour's computeHosts) */
  | { kind: 'no-hosts'; listeners: string[] }
  | { kind: 'dropped'; all: boolean; rules: number[]; holders: Holding[] }
  | { kind: 'unsure'; holders: Holding[]; why: UnsureWhy }

/**
 * undecided: a Route's attachment depends on what the source lacks; both-new: both arrive with the
 * change; undated: a Route of the source has no creationTimestamp, so which is older is not known.
 */
export type UnsureWhy = 'undecided' | 'both-new' | 'undated'

/**
 * The kinds the simulation takes, in Contour's order: TLSRoutes hold no matches, but take their
 * hostnames by the same computeHosts.
 */
export const CONTOUR_KINDS: readonly string[] = ['HTTPRoute', 'TLSRoute', 'GRPCRoute']

/** When a Route was created: at a time the source gives, before the change (undated), or with it. */
type Age = 'dated' | 'undated' | 'new'

const RANK: Record<Age, number> = { dated: 0, undated: 1, new: 2 }

/** Contour's Envoy listener for a Gateway listener: "http-80", "https-443"; HTTPS and TLS share one. */
function envoyListener(listener: Listener): string {
  const family =
    listener.protocol === 'HTTP'
      ? 'http'
      : listener.protocol === 'HTTPS' || listener.protocol === 'TLS'
        ? 'https'
        : (listener.protocol ?? '').toLowerCase()
  // secure and plain virtual hosts are apart even on one Envoy listener
  return `${family}-${listener.port ?? ''}${listener.protocol === 'HTTPS' ? '/tls' : ''}`
}

/** Contour's hostnameMatchesWildcardHostname: "*.example.com" takes "a.example.com" and "a.b.example.com". */
function hostnameMatchesWildcard(hostname: string, wildcard: string): boolean {
  const suffix = wildcard.slice(1)
  return hostname.endsWith(suffix) && hostname.length > suffix.length
}

/**
 * Contour's computeHosts: the hostnames a Route takes on one listener. A hostname that another
 * listener of the Gateway names (more specifically, for a wildcard) is left to that listener.
 */
export function contourHosts(
  hostnames: readonly string[],
  listenerHostname: string,
  otherListenerHostnames: readonly string[]
): string[] {
  if (hostnames.length === 0) return [listenerHostname || '*']
  const elsewhere = (hostname: string): boolean =>
    otherListenerHostnames.some(
      (other) =>
        hostname === other ||
        (other.startsWith('*') &&
          hostnameMatchesWildcard(hostname, other) &&
          other.length > listenerHostname.length)
    )
  const hosts = new Set<string>()
  for (const hostname of hostnames) {
    if (listenerHostname === '') {
      if (!elsewhere(hostname)) hosts.add(hostname)
    } else if (listenerHostname === hostname) hosts.add(hostname)
    else if (listenerHostname.startsWith('*')) {
      if (hostnameMatchesWildcard(hostname, listenerHostname) && !elsewhere(hostname))
        hosts.add(hostname)
    } else if (hostname.startsWith('*') && hostnameMatchesWildcard(listenerHostname, hostname))
      hosts.add(listenerHostname)
  }
  return [...hosts]
}

/** The first of each name, as Contour keeps it: headers by name in any case, query parameters exactly. */
function firstOfEach(items: readonly ValueMatch[], fold: boolean): ValueMatch[] {
  const seen = new Set<string>()
  return items.filter((item) => {
    const name = fold ? item.name.toUpperCase() : item.name
    if (seen.has(name)) return false
    seen.add(name)
    return true
  })
}

/** Contour's path condition, or undefined for a match it drops (InvalidPathMatch, InvalidMethodMatch). */
function pathCondition(kind: string, match: RequestMatch): string | undefined {
  if (kind === 'GRPCRoute') {
    const grpc = match.grpcMethod
    if (!grpc) return 'prefix /'
    if (grpc.type !== 'Exact' || !grpc.service?.trim() || !grpc.method?.trim()) return undefined
    return `exact /${grpc.service}/${grpc.method}`
  }
  const path = match.path ?? { type: 'PathPrefix', value: '/' }
  if (path.type === 'RegularExpression') return `regex ${path.value}`
  if (!path.value.startsWith('/') || path.value.includes('//')) return undefined
  if (path.type === 'Exact') return `exact ${path.value}`
  return path.value === '/' ? 'prefix /' : `segment ${path.value}`
}

/**
 * Contour's conditionsToString for one match: the path, then the headers in their written order (a
 * method is the header ":method", after them), then the query parameters. Two matches conflict only
 * when these are equal, so headers listed in another order do not.
 */
function conditionKey(kind: string, match: RequestMatch): string | undefined {
  const path = pathCondition(kind, match)
  if (path === undefined) return undefined
  const supported = (v: ValueMatch): boolean => v.type === 'Exact' || v.type === 'RegularExpression'
  if (!match.headers.every(supported) || !match.queryParams.every(supported)) return undefined
  const headers = firstOfEach(match.headers, true).map((h) => `h ${h.name}=${h.value} ${h.type}`)
  if (match.method !== undefined) headers.push(`h :method=${match.method} Exact`)
  const queries = firstOfEach(match.queryParams, false).map(
    (q) => `q ${q.name}=${q.value} ${q.type}`
  )
  return [path, ...headers, ...queries].join('\n')
}

/** What a rule asks for, or undefined for a rule Contour skips (no backendRefs and no redirect). */
function ruleConditions(kind: string, rule: Rule): { key: string; match: string }[] | undefined {
  const sends =
    rule.backendRefs.some((ref) => !ref.where.includes('RequestMirror')) ||
    (kind === 'HTTPRoute' && rule.filters.some((f) => f.type === 'RequestRedirect'))
  if (!sends) return undefined
  return rule.requestMatches.flatMap((m) => {
    const key = conditionKey(kind, m)
    return key === undefined ? [] : [{ key, match: describeRequestMatch(m) }]
  })
}

interface Held {
  holding: Holding
  /** someone certainly holds the key: the holder, or a Route that asked after a maybe-holder */
  certain: boolean
}

/** One parentRef's tally on one listener. */
interface Tally {
  dropped: number[]
  unsure: boolean
  holders: Holding[]
}

export class ContourVhosts {
  private readonly held = new Map<string, Held>()
  private readonly outcomes = new Map<RouteObject, VhostOutcome[]>()

  private readonly gateway: { namespace: string; name: string; listeners: readonly Listener[] }
  private readonly attach: (route: RouteObject, ref: ParentRef) => Attachment
  private readonly isNew: (route: RouteObject) => boolean

  /**
   * `routes`: every HTTPRoute, GRPCRoute and TLSRoute with a parentRef to this Gateway; `isNew`: the change
   * creates the Route, so it is younger than every Route of the source.
   */
  constructor(
    gateway: { namespace: string; name: string; listeners: readonly Listener[] },
    routes: readonly RouteObject[],
    attach: (route: RouteObject, ref: ParentRef) => Attachment,
    isNew: (route: RouteObject) => boolean
  ) {
    this.gateway = gateway
    this.attach = attach
    this.isNew = isNew
    const byKind = (kind: string): RouteObject[] =>
      routes
        .filter((r) => r.kind === kind)
        .sort((a, b) => RANK[this.ageOf(a)] - RANK[this.ageOf(b)] || olderRouteFirst(a, b))
    for (const kind of CONTOUR_KINDS) for (const route of byKind(kind)) this.take(route)
  }

  /** The outcome for the Route's parentRef at `index` of routeParentRefs(route). */
  outcome(route: RouteObject, index: number): VhostOutcome {
    return this.outcomes.get(route)?.[index] ?? { kind: 'clear' }
  }

  private take(route: RouteObject): void {
    const outcomes = routeParentRefs(route).map((ref): VhostOutcome => {
      if (!refersToGateway(ref, this.gateway.namespace, this.gateway.name)) return { kind: 'clear' }
      const attachment = this.attach(route, ref)
      return this.takeParent(route, attachment)
    })
    this.outcomes.set(route, outcomes)
  }

  private takeParent(route: RouteObject, attachment: Attachment): VhostOutcome {
    const attached = new Set(attachment.listeners.map((l) => l.name))
    const others = this.gateway.listeners
      .filter((l) => !attached.has(l.name) && l.hostname)
      .map((l) => l.hostname!)
    const hostnames = routeHostnames(route)
    const tallies: Tally[] = []
    const empty: string[] = []
    for (const listener of attachment.listeners) {
      const hosts = contourHosts(hostnames, listener.hostname ?? '', others)
      if (hosts.length === 0) empty.push(listener.name)
      else tallies.push(this.takeListener(route, listener, hosts, !attachment.undecided))
    }
    if (tallies.length === 0 && empty.length > 0 && !attachment.undecided)
      return { kind: 'no-hosts', listeners: empty }
    return this.judge(route, tallies, attachment.undecided)
  }

  private judge(route: RouteObject, tallies: Tally[], undecided: boolean): VhostOutcome {
    const rules = routeRules(route).length
    const holders = tallies.flatMap((t) => t.holders)
    const all = tallies.find((t) => t.dropped.length === rules && rules > 0)
    if (all && !undecided) return { kind: 'dropped', all: true, rules: all.dropped, holders }
    if (tallies.some((t) => t.unsure) || (undecided && holders.length > 0)) {
      const unordered = holders.find((h) => this.unordered(route, h.route))
      const why = unordered ? this.whyUnordered(route, unordered.route) : 'undecided'
      return { kind: 'unsure', holders, why }
    }
    const some = tallies.find((t) => t.dropped.length > 0)
    if (some) return { kind: 'dropped', all: false, rules: some.dropped, holders }
    return { kind: 'clear' }
  }

  private takeListener(
    route: RouteObject,
    listener: Listener,
    hosts: readonly string[],
    certain: boolean
  ): Tally {
    const tally: Tally = { dropped: [], unsure: false, holders: [] }
    if (route.kind === 'TLSRoute') return tally
    const prefix = `${route.kind}\u0000${envoyListener(listener)}\u0000`
    for (const rule of routeRules(route)) {
      const conditions = ruleConditions(route.kind, rule)
      if (conditions === undefined) continue
      const keys = hosts.flatMap((hostname) =>
        conditions.map((c) => ({
          hostname,
          match: c.match,
          key: `${prefix}${hostname}\u0000${c.key}`
        }))
      )
      const found = keys.flatMap((k) => {
        const held = this.held.get(k.key)
        return held === undefined ? [] : [held]
      })
      const sure = found.find((h) => h.certain && !this.unordered(route, h.holding.route))
      if (sure) {
        tally.dropped.push(rule.index)
        tally.holders.push(sure.holding)
        continue
      }
      if (found.length > 0) {
        tally.unsure = true
        tally.holders.push(found[0]!.holding)
        this.markUnordered(route, found)
      }
      for (const k of keys) {
        const holding = { route, hostname: k.hostname, match: k.match, listener: listener.name }
        const before = this.held.get(k.key)
        // after a maybe-holder, the key is held by it or by this Route: certainly by someone
        if (before) before.certain ||= certain
        else this.held.set(k.key, { holding, certain })
      }
    }
    return tally
  }

  private ageOf(route: RouteObject): Age {
    if (this.isNew(route)) return 'new'
    return Number.isNaN(Date.parse(route.metadata.creationTimestamp ?? '')) ? 'undated' : 'dated'
  }

  /** Which of the two Contour takes first is not known: both new, or either undated in the source. */
  private unordered(route: RouteObject, holder: RouteObject): boolean {
    if (holder === route) return false
    const [mine, theirs] = [this.ageOf(route), this.ageOf(holder)]
    return !(mine === 'new' && theirs !== 'new') && !(mine === 'dated' && theirs === 'dated')
  }

  private whyUnordered(route: RouteObject, holder: RouteObject): UnsureWhy {
    return this.ageOf(route) === 'new' && this.ageOf(holder) === 'new' ? 'both-new' : 'undated'
  }

  /** A holder that the asking Route may yet take a match from, when their order is unknown, is unsure too. */
  private markUnordered(route: RouteObject, found: Held[]): void {
    for (const h of found) {
      const holder = h.holding.route
      if (!this.unordered(route, holder)) continue
      const outcomes = this.outcomes.get(holder)
      if (!outcomes) continue
      const holding: Holding = { ...h.holding, route }
      const why = this.whyUnordered(route, holder)
      for (const [i, o] of outcomes.entries())
        if (o.kind === 'clear') outcomes[i] = { kind: 'unsure', holders: [holding], why }
    }
  }
}
