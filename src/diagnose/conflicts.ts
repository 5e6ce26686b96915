// Evidence for conflict reasons (Contour's RuleMatchConflict and RuleMatchPartiallyConflict, NGINX
// Gateway Fabric's HostnameConflict on L4 Routes): the other Routes on the same parent that already
// hold an intersecting hostname and the same match, read from the Routes the run holds.
import type { Diagnosis, DiagnosisContext } from './context.ts'
import { hostnamesIntersect } from './hostnames.ts'
import {
  routeHostnames,
  routeParentRefs,
  routeRules,
  type RequestMatch,
  type ValueMatch
} from '../model/route-spec.ts'
import { listing } from './phrasing.ts'
import { readEntries } from '../model/entries.ts'
import { olderRouteFirst, routeIdOf } from '../model/route-id.ts'
import type { ParentRef, RouteObject, RouteVerdict } from '../model/types.ts'

export const CONFLICT_REASONS = new Set([
  'RuleMatchConflict',
  'RuleMatchPartiallyConflict',
  'HostnameConflict'
])

/** The Route has a parent whose controller reports a conflict with another Route. */
export function reportsConflict(verdict: RouteVerdict): boolean {
  return verdict.parents.some((p) => p.findings.some((f) => CONFLICT_REASONS.has(f.reason)))
}

const sameParent = (a: ParentRef, b: ParentRef): boolean =>
  a.group === b.group && a.kind === b.kind && a.namespace === b.namespace && a.name === b.name

/** A canonical text per match ("path PathPrefix /api, header x-env Exact staging"). */
function matchesOf(route: RouteObject): Set<string> {
  return new Set(routeRules(route).flatMap((rule) => rule.requestMatches.map(describeWholeMatch)))
}

function describeWholeMatch(match: RequestMatch): string {
  const parts: string[] = []
  if (match.path) parts.push(`path ${match.path.type} ${match.path.value}`)
  const values = (field: string, items: ValueMatch[]): string[] =>
    items.map((v) => `${field} ${v.name} ${v.type} ${v.value}`).sort()
  parts.push(...values('header', match.headers), ...values('query', match.queryParams))
  if (match.method !== undefined) parts.push(`method ${match.method}`)
  const grpc = match.grpcMethod
  if (grpc) parts.push(`gRPC ${grpc.type} ${grpc.service ?? '*'}/${grpc.method ?? '*'}`)
  return parts.length > 0 ? parts.join(', ') : 'any request'
}

/** Hostnames both Routes take; a Route without hostnames takes every hostname. */
function sharedHostnames(a: string[], b: string[]): string[] {
  if (a.length === 0) return b.length === 0 ? ['(any hostname)'] : b
  if (b.length === 0) return a
  return a.filter((x) => b.some((y) => hostnamesIntersect(x, y)))
}

/** The other Route's status for that parent says it is not Accepted: it lost too, so it holds nothing. */
function rejectedThere(other: RouteObject, parent: ParentRef): boolean {
  const entries = readEntries(other.status, other.metadata.namespace, other.metadata.generation)
  return entries.some(
    (e) =>
      sameParent(e.parentRef, parent) &&
      e.conditions.some((c) => c.type === 'Accepted' && c.status === 'False')
  )
}

/** Another Route on the same parent with a hostname (and, for HTTP and gRPC, a match) this one shares. */
export interface ConflictHolder {
  other: RouteObject
  hosts: string[]
  same: string[]
}

/** The Routes that already hold what `route` asks for on `ref`, the one the controller keeps first. */
export function conflictHolders(
  route: RouteObject,
  ref: ParentRef,
  routes: RouteObject[]
): ConflictHolder[] {
  const hostnames = routeHostnames(route)
  const matches = matchesOf(route)
  const l4 = route.kind !== 'HTTPRoute' && route.kind !== 'GRPCRoute'
  const holders: ConflictHolder[] = []
  for (const other of routes) {
    const { namespace, name } = other.metadata
    if (other.kind !== route.kind) continue
    if (namespace === route.metadata.namespace && name === route.metadata.name) continue
    if (!routeParentRefs(other).some((r) => sameParent(r, ref)) || rejectedThere(other, ref))
      continue
    const hosts = sharedHostnames(hostnames, routeHostnames(other))
    if (hosts.length === 0) continue
    const theirs = matchesOf(other)
    const same = l4 ? [] : [...matches].filter((m) => theirs.has(m))
    if (!l4 && same.length === 0) continue
    holders.push({ other, hosts, same })
  }
  // the Route the controller keeps first
  return holders.sort((a, b) => olderRouteFirst(a.other, b.other))
}

/** "HTTPRoute shop/a also attaches to Gateway infra/edge with hostname x and match "path …"." */
export function holderSentence(holder: ConflictHolder, where: string): string {
  const { other, hosts, same } = holder
  const created = other.metadata.creationTimestamp
    ? ` (created ${other.metadata.creationTimestamp})`
    : ''
  return `${routeIdOf(other)}${created} also attaches to ${where} with hostname ${listing(hosts)}${same.length > 0 ? ` and match ${listing(same.map((m) => `"${m}"`))}` : ''}.`
}

export function explainConflict(context: DiagnosisContext): Diagnosis {
  const { route, parent } = context
  if (!parent) return { evidence: [] }
  const ref = parent.parentRef
  const where = `${ref.kind} ${ref.namespace}/${ref.name}`
  if (context.routes === undefined) {
    return {
      evidence: [
        `The other ${route.kind}s could not be read, so the Route that holds the same hostname and match on ${where} cannot be named.`
      ]
    }
  }
  const l4 = route.kind !== 'HTTPRoute' && route.kind !== 'GRPCRoute'
  const holders = conflictHolders(route, ref, context.routes)
  if (holders.length === 0) {
    return {
      evidence: [
        `No other ${route.kind} that route-gate read attaches to ${where} with an intersecting hostname${l4 ? '' : ' and the same match'}: the other Route may be in a namespace that was not read, or already changed.`
      ]
    }
  }
  const evidence = holders.slice(0, 5).map((holder) => holderSentence(holder, where))
  const first = holders[0]!
  const firstName = routeIdOf(first.other)
  return {
    title: `${firstName} already holds hostname ${listing(first.hosts)}${first.same.length > 0 ? ` and match "${first.same[0]}"` : ''} on ${where}`,
    remediation: `Give this ${route.kind} a hostname${l4 ? '' : ' or match'} of its own, or remove the duplicate from ${listing(holders.slice(0, 5).map((h) => routeIdOf(h.other)))}; the controller keeps the older Route.`,
    evidence
  }
}
