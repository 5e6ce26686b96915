// Route-to-route conflicts (Contour's RuleMatchConflict and RuleMatchPartiallyConflict, NGINX Gateway
// Fabric's HostnameConflict on L4 Routes): the other Routes on the same parent that already hold an
// intersecting hostname and the same match, the one the controller keeps first, found through an
// index (conflict-index.ts).
import { hostnamesIntersect } from './hostnames.ts'
import {
  routeHostnames,
  routeRules,
  type RequestMatch,
  type ValueMatch
} from '../model/route-spec.ts'
import { readEntries } from '../model/entries.ts'
import { ConflictIndex, type Holdings } from './conflict-index.ts'
import { perList } from '../model/per-list.ts'
import type { ParentRef, RouteObject } from '../model/types.ts'

export const CONFLICT_REASONS = new Set([
  'RuleMatchConflict',
  'RuleMatchPartiallyConflict',
  'HostnameConflict'
])

/**
 * The Route kinds each conflict reason is written for: Contour's match conflicts on HTTP and gRPC
 * Routes; NGINX Gateway Fabric's HostnameConflict only on TLSRoutes (route_common.go), and only for
 * an identical hostname, never an intersecting one.
 */
const CONFLICT_KINDS: Record<string, readonly string[]> = {
  RuleMatchConflict: ['HTTPRoute', 'GRPCRoute'],
  RuleMatchPartiallyConflict: ['HTTPRoute', 'GRPCRoute'],
  HostnameConflict: ['TLSRoute']
}

/** Whether `reason` is written for a Route of this kind. */
export function conflictsFor(reason: string, kind: string): boolean {
  return CONFLICT_KINDS[reason]?.includes(kind) ?? false
}

const sameParent = (a: ParentRef, b: ParentRef): boolean =>
  a.group === b.group && a.kind === b.kind && a.namespace === b.namespace && a.name === b.name

/** A canonical text per match ("path PathPrefix /api, header x-env Exact staging"). */
function matchesOf(route: RouteObject): Set<string> {
  return new Set(routeRules(route).flatMap((rule) => rule.requestMatches.map(describeRequestMatch)))
}

/** A match as a reader names it: "path PathPrefix /api, header x-env Exact staging". */
export function describeRequestMatch(match: RequestMatch): string {
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

const l4 = (route: RouteObject): boolean => route.kind !== 'HTTPRoute' && route.kind !== 'GRPCRoute'

function holdingsOf(route: RouteObject): Holdings {
  return { matches: l4(route) ? [''] : [...matchesOf(route)], hostnames: routeHostnames(route) }
}

/** The list's index, built on first use and again when the list has grown. */
const indexOf = perList((routes) => new ConflictIndex(routes, holdingsOf, rejectedThere))

/**
 * The Routes that already hold what `route` asks for on `ref`, the one the controller keeps first:
 * the oldest `limit` of them.
 */
export function conflictHolders(
  route: RouteObject,
  ref: ParentRef,
  routes: readonly RouteObject[],
  limit = 5
): ConflictHolder[] {
  const held = holdingsOf(route)
  const matches = new Set(held.matches)
  return indexOf(routes)
    .oldestSharing(route, ref, held, limit)
    .map((other) => {
      const same = matchesOf(other)
      return {
        other,
        hosts: sharedHostnames(held.hostnames, routeHostnames(other)),
        same: l4(route) ? [] : [...matches].filter((m) => same.has(m))
      }
    })
}
