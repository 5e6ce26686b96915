// A Route the gate was asked about that does not exist (never created, deleted, or in another
// namespace). It has no parents to judge, so the problem sits on the Route itself.
import type { RouteKey, RouteResult } from '../model/types.ts'
import { routeId } from '../model/route-id.ts'

export function explainMissingRoute(key: RouteKey, final: boolean): RouteResult {
  return {
    kind: key.kind,
    namespace: key.namespace,
    name: key.name,
    verdict: final ? 'failed' : 'pending',
    parents: [],
    problems: [
      {
        reason: 'RouteNotFound',
        standard: false,
        severity: final ? 'error' : 'warning',
        title: `${routeId(key)} does not exist`,
        remediation: `Check the name and namespace (kubectl get ${key.kind.toLowerCase()} -n ${key.namespace}); if the Route is created by a later step, run the gate after that step.`
      }
    ]
  }
}
