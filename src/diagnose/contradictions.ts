// A controller's reason that route-gate's own reads contradict (BackendNotFound while the Service
// exists with the port, RefNotPermitted while a matching ReferenceGrant exists, NotAllowedByListeners
// while a selected listener admits the Route) describes a cluster the controller has not caught up
// with. Such a failure is not definite: fail-fast keeps waiting, and the report says that the reason
// and the evidence disagree instead of advising a fix that is already in place.
import { refuteBackendNotFound, refuteRefNotPermitted } from './backends.ts'
import type { DiagnosisContext } from './context.ts'
import { refuteNotAllowedByListeners } from './listeners.ts'
import { findGateway, isGatewayRef } from '../model/owner.ts'
import type { ParentRef, RouteVerdict, World } from '../model/types.ts'
import { canSee } from '../rules/world.ts'

interface Refuter {
  refute: (context: DiagnosisContext) => string[]
  /** what the controller must be able to read to catch up */
  reads: string
}

const REFUTERS: Record<string, Refuter> = {
  BackendNotFound: { refute: refuteBackendNotFound, reads: 'Services' },
  RefNotPermitted: { refute: refuteRefNotPermitted, reads: 'ReferenceGrants' },
  NotAllowedByListeners: { refute: refuteNotAllowedByListeners, reads: 'Namespaces and Gateways' }
}

export interface Contradiction {
  /** what route-gate read, as sentences */
  facts: string[]
  reads: string
}

/** The evidence that contradicts a finding's reason, or undefined when the evidence agrees or is silent. */
export function contradiction(context: DiagnosisContext): Contradiction | undefined {
  const refuter = REFUTERS[context.finding.reason]
  if (!refuter) return undefined
  const facts = refuter.refute(context)
  return facts.length > 0 ? { facts, reads: refuter.reads } : undefined
}

/**
 * A failed Route whose failure the reads confirm: at least one error the evidence does not contradict.
 * `world` must hold the Services, grants and Namespaces of the Route's namespaces (namespacesToRead).
 */
export function definitelyFailed(verdict: RouteVerdict, world: World): boolean {
  if (verdict.verdict !== 'failed') return false
  if (verdict.findings.some((f) => f.severity === 'error')) return true
  const { route } = verdict
  return verdict.parents.some(
    (parent) =>
      parent.verdict === 'failed' &&
      parent.findings.some(
        (finding) =>
          finding.severity === 'error' &&
          contradiction({ route, world, finding, parent }) === undefined
      )
  )
}

/**
 * The parents still waiting for any status whose Gateway the reads prove absent: `world` read its
 * namespace's Gateways and found none of that name. A Gateway that could not be read proves nothing.
 */
export function missingGatewayParents(verdict: RouteVerdict, world: World): ParentRef[] {
  return verdict.parents
    .filter(
      (p) =>
        p.verdict === 'pending' &&
        p.findings.some((f) => f.reason === 'NoStatus') &&
        isGatewayRef(p.parentRef) &&
        canSee(world, 'gateways', p.parentRef.namespace) &&
        findGateway(world, p.parentRef.namespace, p.parentRef.name) === undefined
    )
    .map((p) => p.parentRef)
}
