// Reading `status.parents` into typed entries, skipping what cannot be read (routeShapeError reports it).
import { normalizeParentRef } from './parent-ref.ts'
import type { Condition, ConditionStatus, ParentRef } from './types.ts'
import { arrayField, integerField, isRecord, stringField } from './unknown.ts'

export interface StatusEntry {
  parentRef: ParentRef
  controllerName: string | undefined
  conditions: Condition[]
  /** the entry as written, for orphans */
  raw: Record<string, unknown>
}

const STATUSES: readonly string[] = ['True', 'False', 'Unknown'] satisfies ConditionStatus[]

/**
 * How a condition's observedGeneration compares with the Route's generation. `unproven`: one of the
 * two is absent; `ahead`: newer than the Route, which only a controller bug produces.
 */
export type Freshness = 'fresh' | 'stale' | 'unproven' | 'ahead'

export function freshnessOf(condition: Condition, generation: number | undefined): Freshness {
  const observed = condition.observedGeneration
  if (observed === undefined || generation === undefined) return 'unproven'
  if (observed < generation) return 'stale'
  return observed > generation ? 'ahead' : 'fresh'
}

/** One condition as written (type and a valid status required), without judging its freshness. */
export function parseCondition(raw: unknown): Condition | undefined {
  const type = stringField(raw, 'type')
  const status = stringField(raw, 'status')
  if (!type || status === undefined || !STATUSES.includes(status)) return undefined
  const condition: Condition = { type, status: status as ConditionStatus }
  const reason = stringField(raw, 'reason')
  if (reason !== undefined) condition.reason = reason
  const message = stringField(raw, 'message')
  if (message !== undefined) condition.message = message
  const observedGeneration = integerField(raw, 'observedGeneration')
  if (observedGeneration !== undefined) condition.observedGeneration = observedGeneration
  const lastTransitionTime = stringField(raw, 'lastTransitionTime')
  if (lastTransitionTime !== undefined) condition.lastTransitionTime = lastTransitionTime
  return condition
}

function readCondition(raw: unknown, generation: number | undefined): Condition | undefined {
  const condition = parseCondition(raw)
  if (condition) condition.fresh = freshnessOf(condition, generation) !== 'stale'
  return condition
}

export function readConditions(raw: unknown, generation: number | undefined): Condition[] {
  return (arrayField(raw, 'conditions') ?? []).flatMap((item) => {
    const condition = readCondition(item, generation)
    return condition ? [condition] : []
  })
}

export function readEntries(
  status: unknown,
  routeNamespace: string,
  generation: number | undefined
): StatusEntry[] {
  return (arrayField(status, 'parents') ?? []).flatMap((raw) => {
    if (!isRecord(raw) || !isRecord(raw.parentRef)) return []
    return [
      {
        parentRef: normalizeParentRef(raw.parentRef, routeNamespace),
        controllerName: stringField(raw, 'controllerName'),
        conditions: readConditions(raw, generation),
        raw
      }
    ]
  })
}
