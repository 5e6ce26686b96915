// A Route that already holds what another asks for on a parent, as a sentence.
import type { ConflictHolder } from '../rules/conflicts.ts'
import type { Holding, UnsureWhy } from '../rules/contour-vhosts.ts'
import type { RouteObject } from '../model/types.ts'
import { routeIdOf } from '../model/route-id.ts'
import { listing } from './phrasing.ts'

/** "HTTPRoute shop/a also attaches to Gateway infra/edge with hostname x and match "path …"." */
export function holderSentence(holder: ConflictHolder, where: string): string {
  const { other, hosts, same } = holder
  const created = other.metadata.creationTimestamp
    ? ` (created ${other.metadata.creationTimestamp})`
    : ''
  return `${routeIdOf(other)}${created} also attaches to ${where} with hostname ${listing(hosts)}${same.length > 0 ? ` and match ${listing(same.map((m) => `"${m}"`))}` : ''}.`
}

/** `HTTPRoute app/held (created …) already holds "path PathPrefix /" for hostname x on listener http`. */
function heldBy(holding: Holding, asking: RouteObject): string {
  const { route, hostname, match, listener } = holding
  const what = `"${match}" for hostname ${hostname}`
  if (route === asking)
    return `its own earlier rule or parentRef already holds ${what} through listener ${listener}, on the same port`
  const created = route.metadata.creationTimestamp
    ? ` (created ${route.metadata.creationTimestamp})`
    : ''
  return `${routeIdOf(route)}${created} already holds ${what} on listener ${listener}`
}

const firstHolders = (holders: readonly Holding[], asking: RouteObject): string =>
  listing([...new Set(holders.slice(0, 3).map((h) => heldBy(h, asking)))])

/** Accepted=False RuleMatchConflict: every rule asks for a match an older Route holds. */
export function droppedEveryRule(route: RouteObject, holders: readonly Holding[]): string {
  return `Contour drops every rule of the ${route.kind}: ${firstHolders(holders, route)}. It keeps each match for the Route it took first (oldest creationTimestamp, then namespace/name) and writes "${route.kind}'s Match has conflict with other ${route.kind}'s Match".`
}

/** PartiallyInvalid RuleMatchPartiallyConflict: some rules ask for a match another Route holds. */
export function droppedSomeRules(
  route: RouteObject,
  rules: readonly number[],
  holders: readonly Holding[]
): string {
  return `Contour will drop rule ${listing(rules.map(String))} of the ${route.kind} (PartiallyInvalid=True, RuleMatchPartiallyConflict): ${firstHolders(holders, route)}.`
}

/** Why a conflict on Contour is not decided by the objects. */
export function unsureConflict(
  route: RouteObject,
  holders: readonly Holding[],
  why: UnsureWhy
): string {
  const others = firstHolders(holders, route)
  switch (why) {
    case 'both-new':
      return `Contour keeps a match for the Route created first, and both Routes arrive with this change: ${others}. Which one Contour keeps is not known before they are created.`
    case 'undated':
      return `Contour keeps a match for the Route created first: ${others}, but the cluster source gives no creationTimestamp to tell which Route is older.`
    case 'undecided':
      return `Contour refuses a rule whose match another Route holds first (RuleMatchConflict): ${others}, but whether that Route attaches depends on namespace labels the source lacks.`
  }
}

/** Contour leaves a hostname to the listener that names it: the Route keeps no hostname here. */
export function noContourHosts(listeners: readonly string[]): string {
  return `Contour gives the Route no hostname on listener ${listing([...listeners])}: each of its hostnames intersects none of them, or is named (more specifically) by another listener of the Gateway the parentRef does not attach to, which Contour leaves it to.`
}
