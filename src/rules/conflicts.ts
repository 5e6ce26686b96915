// Route-to-route conflicts (Contour's RuleMatchConflict and RuleMatchPartiallyConflict, NGINX Gateway
// Fabric's HostnameConflict on L4 Routes): the other Routes on the same parent that already hold an
// intersecting hostname and the same match, the one the controller keeps first.
import { hostnamesIntersect } from './hostnames.ts'
import {
  routeHostnames,
  routeParentRefs,
  routeRules,
  type RequestMatch,
  type ValueMatch
} from '../model/route-spec.ts'
import { readEntries } from '../model/entries.ts'
import { olderRouteFirst } from '../model/route-id.ts'
import type { ParentRef, RouteObject } from '../model/types.ts'

export const CONFLICT_REASONS = new Set([
  'RuleMatchConflict',
  'RuleMatchPartiallyConflict',
  'HostnameConflict'
])

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
