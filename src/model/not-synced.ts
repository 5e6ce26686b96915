// A Route whose live object does not carry the merged files yet (check --manifests) or the revision
// marker (until-annotation): its status describes something other than what was merged, so no
// condition on it decides. Every parent waits with NotSynced, and fails with it at the deadline.
import type { Finding, RouteVerdict, Verdict } from './types.ts'

export function notSynced(verdict: RouteVerdict, message: string, final: boolean): RouteVerdict {
  const severity = final ? 'error' : 'warning'
  const finding: Finding = { reason: 'NotSynced', severity, waitingFor: message }
  const state: Verdict = final ? 'failed' : 'pending'
  const parents = verdict.parents.map((parent) => ({
    ...parent,
    verdict: state,
    findings: [finding]
  }))
  // the live object's own findings (NoParentRefs, Terminating) are about what was not merged
  return { ...verdict, verdict: state, parents, findings: parents.length > 0 ? [] : [finding] }
}
