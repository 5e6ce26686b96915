// The verdict with verify-traffic (pure): a parent is ready only when its status is ready and its
// probe says serving. Kinds no request can be built for yet keep their status verdict, with a warning.
import { combineVerdicts } from '../model/evaluate.ts'
import { parentRefKey } from '../model/parent-ref.ts'
import { routeKey } from '../model/route-id.ts'
import type { ParentRef, ParentResult, Problem, RouteResult } from '../model/types.ts'
import type { ProbeOutcome } from './verify.ts'

export function probeKey(
  route: { kind: string; namespace: string; name: string },
  ref: ParentRef
): string {
  return `${routeKey(route)} ${parentRefKey(ref)}`
}

/** Why a ready parent has no outcome: the probes start only once every Route's status is ready. */
const NOT_STARTED =
  'no request was sent: traffic is verified once the status of every Route in the run is ready, and the run ended before that'

export function applyProbes(
  routes: RouteResult[],
  outcomes: Map<string, ProbeOutcome>
): RouteResult[] {
  return routes.map((route) => {
    const parents = route.parents.map((parent) => {
      if (parent.verdict !== 'ready') return parent
      const outcome = outcomes.get(probeKey(route, parent.parentRef)) ?? {
        result: { state: 'not-probed' as const, why: NOT_STARTED }
      }
      return judged(route, parent, outcome)
    })
    return {
      ...route,
      parents,
      verdict: combineVerdicts([route.verdict, ...parents.map((p) => p.verdict)])
    }
  })
}

function judged(route: RouteResult, parent: ParentResult, outcome: ProbeOutcome): ParentResult {
  const { result } = outcome
  if (result.state === 'serving') return { ...parent, probe: result }
  if (result.state === 'not-probed') {
    // Only HTTPRoute traffic is built today: other kinds are gated on status alone, and say so.
    const blocking = route.kind === 'HTTPRoute'
    const problem: Problem = {
      reason: 'NotProbed',
      severity: blocking ? 'error' : 'warning',
      title: blocking
        ? 'Traffic could not be verified'
        : `Traffic not verified: ${route.kind} is judged by its status only`,
      message: result.why,
      remediation: blocking
        ? notProbedRemedy(result.why ?? '')
        : `verify-traffic builds HTTP requests for HTTPRoutes only; this ${route.kind} is ready by its status conditions, which say the controller took it, not that the data plane serves it.`
    }
    return {
      ...parent,
      verdict: blocking ? 'failed' : parent.verdict,
      probe: result,
      problems: [...parent.problems, problem]
    }
  }
  return {
    ...parent,
    verdict: 'failed',
    probe: result,
    problems: [...parent.problems, ...(outcome.problem ? [outcome.problem] : [])]
  }
}

function notProbedRemedy(why: string): string {
  if (why === NOT_STARTED) {
    return 'Fix what keeps the other Routes from being ready (see their problems), or give the gate a longer timeout.'
  }
  if (why.includes('gateway-address')) {
    return "The controller has not written an address into the Gateway's status (it may still be provisioning a load balancer). Give the address route-gate should send requests to with gateway-address."
  }
  return 'Make the Route reachable through an HTTP or HTTPS listener of its Gateway with at least one rule whose match is a path (Exact or PathPrefix), or gate this Route without verify-traffic.'
}
