// A Route on its way out (design rule 10): what holds it and what to do, for the Terminating finding.
import type { Diagnosis, DiagnosisContext } from './context.ts'
import { listing, quoted } from '../wording/phrasing.ts'
import { routeIdOf } from '../model/route-id.ts'

export function explainTerminating(context: DiagnosisContext): Diagnosis {
  const { route, finding } = context
  const id = routeIdOf(route)
  const finalizers = (finding.finalizers ?? []).map(quoted)
  const evidence = [
    `metadata.deletionTimestamp is ${quoted(finding.deletionTimestamp)}: deletion of ${id} was requested and the API server is removing it.`,
    finalizers.length > 0
      ? `Finalizers still hold it: ${listing(finalizers)}.`
      : 'No finalizer holds it any more: it disappears as soon as the API server finishes.'
  ]
  return {
    title: `${id} is being deleted`,
    remediation:
      `Find what deleted it (kubectl, a GitOps tool pruning it, the deletion of its namespace) and re-create it once it is gone if it should stay.` +
      (finalizers.length > 0
        ? ` Each finalizer is removed by the controller that set it; if deletion stays stuck, check that controller.`
        : ''),
    evidence
  }
}
