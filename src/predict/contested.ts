// Route-to-route conflicts on a predicted parent, as its controller decides them: Contour's virtual
// hosts simulated over every Route on the Gateway (rules/contour-vhosts.ts), NGINX Gateway Fabric's
// HostnameConflict left unknown with the other Route named.
import {
  CONFLICT_REASONS,
  conflictHolders,
  conflictsFor,
  exactHostnames
} from '../rules/conflicts.ts'
import { ContourVhosts } from '../rules/contour-vhosts.ts'
import { findController, writesReason } from '../rules/controllers.ts'
import { listenersOf } from '../rules/world.ts'
import { isGatewayRef } from '../model/owner.ts'
import { routeParentRefs } from '../model/route-spec.ts'
import type { KubeObject, RouteObject } from '../model/types.ts'
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
}

/** Contour's virtual hosts of a Gateway, simulated once over every Route on it. */
function vhostsOf(gateway: KubeObject, run: ConflictState): ContourVhosts {
  const key = `${gateway.metadata.namespace ?? ''}/${gateway.metadata.name}`
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
    (route, ref) => attachmentOf(route, ref, gateway, run.objects)
  )
  run.vhosts.set(key, vhosts)
  return vhosts
}

/** The HTTPRoutes and GRPCRoutes by the Gateways their parentRefs name: "namespace/name". */
function routesByGateway(routes: readonly RouteObject[]): Map<string, RouteObject[]> {
  const out = new Map<string, RouteObject[]>()
  for (const route of routes) {
    if (route.kind !== 'HTTPRoute' && route.kind !== 'GRPCRoute') continue
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
 * HostnameConflict keeps the parent unknown, naming the other Route.
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
  if (!controller || conflictReason === undefined) return prediction
  if (conflictReason === 'RuleMatchConflict') return contourConflict(route, index, prediction, run)
  const ref = prediction.parentRef
  const holders = conflictHolders(route, ref, run.objects.routes, 1, exactHostnames(conflictReason))
  if (holders.length === 0) return prediction
  const where = `${ref.kind} ${ref.namespace}/${ref.name}`
  return {
    ...prediction,
    accepted: {
      status: 'Unknown',
      why: `${controller.name} writes ${conflictReason} for one of two Routes that share a hostname and match on a parent, and keeps the older: ${holderSentence(holders[0]!, where)} Which Route it keeps is not predicted.`
    }
  }
}
