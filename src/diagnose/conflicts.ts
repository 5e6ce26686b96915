// Evidence for conflict reasons: the other Routes on the same parent that already hold an intersecting
// hostname and the same match (rules/conflicts.ts), read from the Routes the run holds.
import type { Diagnosis, DiagnosisContext } from './context.ts'
import { CONFLICT_REASONS, conflictHolders } from '../rules/conflicts.ts'
import { holderSentence } from '../wording/conflicts.ts'
import { listing } from '../wording/phrasing.ts'
import { routeIdOf } from '../model/route-id.ts'
import type { RouteVerdict } from '../model/types.ts'

/** The Route has a parent whose controller reports a conflict with another Route. */
export function reportsConflict(verdict: RouteVerdict): boolean {
  return verdict.parents.some((p) => p.findings.some((f) => CONFLICT_REASONS.has(f.reason)))
}

export function explainConflict(context: DiagnosisContext): Diagnosis {
  const { route, parent } = context
  if (!parent) return { evidence: [] }
  const ref = parent.parentRef
  const where = `${ref.kind} ${ref.namespace}/${ref.name}`
  if (context.routes === undefined) {
    return {
      evidence: [
        `The other ${route.kind}s could not be read, so the Route that holds the same hostname and match on ${where} cannot be named.`
      ]
    }
  }
  const l4 = route.kind !== 'HTTPRoute' && route.kind !== 'GRPCRoute'
  const holders = conflictHolders(route, ref, context.routes)
  if (holders.length === 0) {
    return {
      evidence: [
        `No other ${route.kind} that route-gate read attaches to ${where} with an intersecting hostname${l4 ? '' : ' and the same match'}: the other Route may be in a namespace that was not read, or already changed.`
      ]
    }
  }
  const evidence = holders.slice(0, 5).map((holder) => holderSentence(holder, where))
  const first = holders[0]!
  const firstName = routeIdOf(first.other)
  return {
    title: `${firstName} already holds hostname ${listing(first.hosts)}${first.same.length > 0 ? ` and match "${first.same[0]}"` : ''} on ${where}`,
    remediation: `Give this ${route.kind} a hostname${l4 ? '' : ' or match'} of its own, or remove the duplicate from ${listing(holders.slice(0, 5).map((h) => routeIdOf(h.other)))}; the controller keeps the older Route.`,
    evidence
  }
}
