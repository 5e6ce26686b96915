// The verdict with verify-traffic (pure): a parent is ready only when its status is ready and its
// probe says serving. Kinds no request can be built for yet keep their status verdict, with a warning.
import { combineVerdicts } from '../../model/evaluate.ts'
import { parentRefKey } from '../../model/parent-ref.ts'
import { routeKey } from '../../model/route-id.ts'
import type { ParentRef, ParentResult, RouteResult } from '../../model/types.ts'
import { notProbedOutcome } from './answer-meaning.ts'
import type { ProbeOutcome } from './answer-meaning.ts'

export function probeKey(
  route: { kind: string; namespace: string; name: string },
  ref: ParentRef
): string {
  return `${routeKey(route)} ${parentRefKey(ref)}`
}

/** A ready parent without an outcome: the probes start only once every Route's status is ready. */
const NOT_STARTED: ProbeOutcome = notProbedOutcome({
  cause: 'not-started',
  notProbed:
    'no request was sent: traffic is verified once the status of every Route in the run is ready, and the run ended before that'
})

export function applyProbes(
  routes: RouteResult[],
  outcomes: Map<string, ProbeOutcome>
): RouteResult[] {
  return routes.map((route) => {
    const parents = route.parents.map((parent) => {
      if (parent.verdict !== 'ready') return parent
      return judged(parent, outcomes.get(probeKey(route, parent.parentRef)) ?? NOT_STARTED)
    })
    return {
      ...route,
      parents,
      verdict: combineVerdicts([route.verdict, ...parents.map((p) => p.verdict)])
    }
  })
}

function judged(parent: ParentResult, outcome: ProbeOutcome): ParentResult {
  const { result, problem } = outcome
  if (result.state === 'serving') return { ...parent, probe: result }
  // not-probed for a kind or parent no request is built for yet: a warning, the status verdict stands
  const fails = problem?.severity !== 'warning'
  return {
    ...parent,
    verdict: fails ? 'failed' : parent.verdict,
    probe: result,
    problems: [...parent.problems, ...(problem ? [problem] : [])]
  }
}
