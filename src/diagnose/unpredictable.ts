// Where predict abstains, the fix is to give it what it lacked, but only when something can be given:
// a kind the dump does not list. A controller's own precedence or an unmodelled feature is not in
// any dump, and saying "add it to the dump" there sends the reader after nothing.
import type { Diagnosis, DiagnosisContext } from './context.ts'
import { kinds, listing } from '../wording/phrasing.ts'

export function explainUnpredictable(context: DiagnosisContext): Diagnosis {
  const needs = context.finding.needs ?? []
  if (needs.length === 0) return { evidence: [] }
  return {
    evidence: [],
    remediation: `route-gate predict did not guess: add the ${listing(needs.map(kinds))} to the dump (route-gate dump lists them), or apply the change and let route-gate gate judge the status its controller writes.`
  }
}
