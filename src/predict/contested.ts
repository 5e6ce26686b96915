// Route-to-route conflicts on a predicted parent, as its controller decides them: Contour's virtual
// hosts simulated over every Route on the Gateway (rules/contour-vhosts.ts), NGINX Gateway Fabric's
// HostnameConflict left unknown with the other Route named.
import { CONFLICT_REASONS, conflictsFor } from '../rules/conflicts.ts'
import type { ConflictHolder } from '../rules/conflicts.ts'
import { CONTOUR_KINDS, ContourVhosts } from '../rules/contour-vhosts.ts'
import { findController, writesReason } from '../rules/controllers.ts'
import { listenersOf } from '../rules/world.ts'
import { isGatewayRef, refersToGateway } from '../model/owner.ts'
import { olderRouteFirst } from '../model/route-id.ts'
import { routeHostnames, routeParentRefs } from '../model/route-spec.ts'
import type { KubeObject, ParentRef, RouteObject } from '../model/types.ts'
import {
  droppedEveryRule,
  droppedSomeRules,
  holderSentence,
  noContourHosts,
  unsureConflict
} from '../wording/conflicts.ts'
import type { Objects } from './overlay.ts'
import { attachmentOf } from './attachment.ts'
import type { ParentPrediction } from './rules.ts'

/** What the conflict rules read of a run: its objects, and the virtual hosts built so far. */
export interface ConflictState {
  objects: Objects
  /** Contour's virtual hosts by Gateway ("namespace/name"), built on first use */
  vhosts: Map<string, ContourVhosts>
  routesByGateway?: Map<string, RouteObject[]>
  /** the Routes the change creates: younger than every Route of the cluster source */
  created: ReadonlySet<RouteObject>
  /** NGINX Gateway Fabric's exact-hostname holders by kind and Gateway, built on first use */
  hostnameHolders: Map<string, Map<string, RouteObject[]>>
}

/** A fresh state over `objects`; `created`: the Routes the change creates. */
export function conflictState(
  objects: Objects,
  created: ReadonlySet<RouteObject> = new Set()
): ConflictState {
  return { objects, vhosts: new Map(), hostnameHolders: new Map(), created }
}

/** Contour's virtual hosts of a Gateway, simulated once over every Route on it. */
function vhostsOf(gateway: KubeObject, run: ConflictState): ContourVhosts {
  const key = gatewayKey(gateway)
  const known = run.vhosts.get(key)
  if (known) return known
  const onGateway = (run.routesByGateway ??= routesByGateway(run.objects.routes))
  const vhosts = new ContourVhosts(
    {
      namespace: gateway.metadata.namespace ?? '',
      name: gateway.metadata.name,
      listeners: listenersOf(gateway)
    },
    onGateway.get(key) ?? [],
    (route, ref) => attachmentOf(route, ref, gateway, run.objects),
    (route) => run.created.has(route)
  )
  run.vhosts.set(key, vhosts)
  return vhosts
}

/** The Routes by the Gateways their parentRefs name: "namespace/name". */
export function routesByGateway(routes: readonly RouteObject[]): Map<string, RouteObject[]> {
  const out = new Map<string, RouteObject[]>()
  for (const route of routes) {
    const keys = new Set(
      routeParentRefs(route)
        .filter(isGatewayRef)
        .map((ref) => `${ref.namespace}/${ref.name}`)
    )
    for (const key of keys) {
      const list = out.get(key)
      if (list) list.push(route)
      else out.set(key, [route])
    }
  }
  return out
}

const gatewayKey = (gateway: KubeObject): string =>
  `${gateway.metadata.namespace ?? ''}/${gateway.metadata.name}`

/** The listener ports a parentRef attaches through. */
function portsOf(
  route: RouteObject,
  ref: ParentRef,
  gateway: KubeObject,
  run: ConflictState
): Set<number | undefined> {
  return new Set(attachmentOf(route, ref, gateway, run.objects).listeners.map((l) => l.port))
}

/**
 * Per Gateway, the Routes of a kind by listener port and hostname, oldest first: NGINX Gateway
 * Fabric's HostnameConflict is between TLSRoutes with the very same hostname on the same port.
 */
function byPortAndHostname(
  gateway: KubeObject,
  kind: string,
  run: ConflictState
): Map<string, RouteObject[]> {
  const key = `${kind}\u0000${gatewayKey(gateway)}`
  const known = run.hostnameHolders.get(key)
  if (known) return known
  const out = new Map<string, RouteObject[]>()
  const onGateway = (run.routesByGateway ??= routesByGateway(run.objects.routes))
  const routes = (onGateway.get(gatewayKey(gateway)) ?? []).filter((r) => r.kind === kind)
  for (const route of routes.sort(olderRouteFirst)) {
    for (const ref of routeParentRefs(route).filter((r) => refersTo(r, gateway))) {
      for (const slot of slotsOf(route, portsOf(route, ref, gateway, run))) {
        const list = out.get(slot)
        if (!list) out.set(slot, [route])
        else if (list.at(-1) !== route) list.push(route)
      }
    }
  }
  run.hostnameHolders.set(key, out)
  return out
}

const refersTo = (ref: ParentRef, gateway: KubeObject): boolean =>
  refersToGateway(ref, gateway.metadata.namespace ?? '', gateway.metadata.name)

function slotsOf(route: RouteObject, ports: Set<number | undefined>): string[] {
  const hostnames = routeHostnames(route).map((h) => h.toLowerCase())
  return [...ports].flatMap((port) => hostnames.map((h) => `${port ?? ''}\u0000${h}`))
}

/** The oldest other Route with one of this Route's hostnames on one of its listener ports. */
function sameHostnameHolder(
  route: RouteObject,
  ref: ParentRef,
  gateway: KubeObject,
  run: ConflictState
): ConflictHolder | undefined {
  const slots = byPortAndHostname(gateway, route.kind, run)
  const mine = slotsOf(route, portsOf(route, ref, gateway, run))
  const others = mine.flatMap((slot) => {
    const other = slots.get(slot)?.find((r) => r !== route && !sameName(r, route))
    return other ? [{ other, hostname: slot.split('\u0000')[1]! }] : []
  })
  const first = others.sort((a, b) => olderRouteFirst(a.other, b.other))[0]
  return first && { other: first.other, hosts: [first.hostname], same: [] }
}

const sameName = (a: RouteObject, b: RouteObject): boolean =>
  a.metadata.namespace === b.metadata.namespace && a.metadata.name === b.metadata.name

/** Contour's match conflicts, as its virtual hosts decide them: failed, ready with a warning, or unsure. */
function contourConflict(
  route: RouteObject,
  index: number,
  prediction: ParentPrediction,
  run: ConflictState
): ParentPrediction {
  const ref = prediction.parentRef
  const gateway = isGatewayRef(ref) ? run.objects.gateway(ref.namespace, ref.name) : undefined
  if (!gateway) return prediction
  const outcome = vhostsOf(gateway, run).outcome(route, index)
  switch (outcome.kind) {
    case 'clear':
      return prediction
    case 'no-hosts':
      return {
        ...prediction,
        accepted: {
          status: 'False',
          reason: 'NoMatchingListenerHostname',
          message: noContourHosts(outcome.listeners)
        }
      }
    case 'unsure':
      return {
        ...prediction,
        accepted: { status: 'Unknown', why: unsureConflict(route, outcome.holders, outcome.why) }
      }
    case 'dropped':
      if (!outcome.all) {
        const warning = {
          condition: 'PartiallyInvalid',
          reason: 'RuleMatchPartiallyConflict',
          message: droppedSomeRules(route, outcome.rules, outcome.holders)
        }
        return { ...prediction, warnings: [...prediction.warnings, warning] }
      }
      return {
        ...prediction,
        accepted: {
          status: 'False',
          reason: 'RuleMatchConflict',
          message: droppedEveryRule(route, outcome.holders)
        }
      }
  }
}

/**
 * A controller that writes a conflict reason refuses one of two Routes that ask for the same thing on
 * a parent. Contour's rule is simulated exactly (rules/contour-vhosts.ts). NGINX Gateway Fabric's
 * HostnameConflict (the same hostname on the same listener port) keeps the parent unknown, naming
 * the other Route.
 */
export function contested(
  route: RouteObject,
  index: number,
  prediction: ParentPrediction,
  run: ConflictState
): ParentPrediction {
  if (prediction.accepted?.status !== 'True') return prediction
  const controller = findController(prediction.controllerName)
  const conflictReason = [...CONFLICT_REASONS].find(
    (reason) => writesReason(controller, undefined, reason) && conflictsFor(reason, route.kind)
  )
  if (
    writesReason(controller, undefined, 'RuleMatchConflict') &&
    CONTOUR_KINDS.includes(route.kind)
  )
    return contourConflict(route, index, prediction, run)
  if (!controller || conflictReason === undefined) return prediction
  const ref = prediction.parentRef
  const gateway = isGatewayRef(ref) ? run.objects.gateway(ref.namespace, ref.name) : undefined
  const holder = gateway && sameHostnameHolder(route, ref, gateway, run)
  if (!holder) return prediction
  const where = `${ref.kind} ${ref.namespace}/${ref.name}`
  return {
    ...prediction,
    accepted: {
      status: 'Unknown',
      why: `${controller.name} writes ${conflictReason} for one of two ${route.kind}s with the same hostname on the same listener port, and keeps one: ${holderSentence(holder, where)} Which Route it keeps is not predicted.`
    }
  }
}
