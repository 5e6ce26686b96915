// Self-calibration: the cluster's own Routes that carry status, predicted from their spec alone and
// compared with what their controllers wrote. Where a controller wrote ready and predict would have
// said failed (or the reverse), that reason is not trusted for that controller: its predictions become
// unknown. This is how a controller's deviations show up without a hard-coded list.
import { parseCondition } from '../model/entries.ts'
import { normalizeParentRef, parentRefKey } from '../model/parent-ref.ts'
import { routeParentRefs } from '../model/route-spec.ts'
import type { Calibration, Condition, RouteObject } from '../model/types.ts'
import { arrayField, isRecord, stringField } from '../model/unknown.ts'
import type { Objects } from './overlay.ts'
import { predictParent, predictedConditions, verdictOf } from './rules.ts'
import { routeIdOf } from '../model/route-id.ts'
import type { FeatureLedger } from './features.ts'
import { conflictState, contested } from './contested.ts'

type Written = { verdict: 'ready' | 'failed'; reasons: string[]; label: string }

function statusEntry(route: RouteObject, key: string, controllerName: string): unknown {
  return (arrayField(route.status, 'parents') ?? []).find(
    (entry) =>
      stringField(entry, 'controllerName') === controllerName &&
      isRecord(entry) &&
      parentRefKey(normalizeParentRef(entry.parentRef, route.metadata.namespace)) === key
  )
}

/**
 * The written verdict of one entry on the required types; undefined when it cannot be compared:
 * pending, stale, or a failure of the data plane (Traefik's BackendNotFound for a Service without
 * EndpointSlices), which no object in a dump decides.
 */
function writtenVerdict(
  route: RouteObject,
  entry: unknown,
  required: string[]
): Written | undefined {
  const conditions = (arrayField(entry, 'conditions') ?? []).flatMap(
    (raw) => parseCondition(raw) ?? []
  )
  const generation = route.metadata.generation
  const judged: Condition[] = []
  for (const type of required) {
    const condition = conditions.find((c) => c.type === type)
    if (!condition || condition.status === 'Unknown') return undefined
    const { observedGeneration } = condition
    if (
      generation !== undefined &&
      observedGeneration !== undefined &&
      observedGeneration < generation
    )
      return undefined
    judged.push(condition)
  }
  const failed = judged.filter((c) => c.status === 'False')
  if (failed.some((c) => /endpointslice/i.test(c.message ?? ''))) return undefined
  return failed.length === 0
    ? { verdict: 'ready', reasons: [], label: 'ready' }
    : {
        verdict: 'failed',
        reasons: failed.flatMap((c) => (c.reason ?? '').split(',').map((r) => r.trim())),
        label: failed.map((c) => `${c.type}=False ${c.reason ?? ''}`).join(', ')
      }
}

/** The entry's Accepted condition. */
function writtenAccepted(entry: unknown): Condition | undefined {
  return (arrayField(entry, 'conditions') ?? [])
    .flatMap((raw) => parseCondition(raw) ?? [])
    .find((c) => c.type === 'Accepted')
}

/**
 * `features` gathers what each controller wrote for the features the Routes use (features.ts);
 * `holdersOnly`: Routes among `objects` that only take part in the conflict rules (the change's),
 * whose status, if a manifest carries one, is never read.
 */
export function calibrate(
  objects: Objects,
  required: string[],
  checkpoint: (done: number, of: number) => void = () => {},
  features?: FeatureLedger,
  holdersOnly: readonly RouteObject[] = []
): Calibration[] {
  const skipped = new Set(holdersOnly)
  const byController = new Map<string, Calibration>()
  // the route-to-route rules too (Contour's virtual hosts), so a controller that decides otherwise
  // shows it here and its conflict reasons stop being predicted
  const conflicts = conflictState(objects)
  for (const [done, route] of objects.routes.entries()) {
    checkpoint(done, objects.routes.length)
    if (skipped.has(route) || (arrayField(route.status, 'parents') ?? []).length === 0) continue
    const agreement = new Map<string, boolean>()
    for (const [i, ref] of routeParentRefs(route).entries()) {
      const prediction = contested(route, i, predictParent(route, ref, objects), conflicts)
      const { controllerName } = prediction
      if (!controllerName) continue
      const entry = statusEntry(route, parentRefKey(ref), controllerName)
      const written = writtenVerdict(route, entry, required)
      const attached = prediction.accepted?.status === 'True'
      if (written)
        features?.record(route, routeIdOf(route), controllerName, writtenAccepted(entry), attached)
      const predicted = verdictOf(prediction, required)
      if (!written || predicted === 'unknown') continue
      const calibration = byController.get(controllerName) ?? {
        controllerName,
        agrees: 0,
        of: 0,
        disagreements: [],
        distrusted: []
      }
      byController.set(controllerName, calibration)
      const failing = predictedConditions(prediction).filter(
        (c) => required.includes(c.type) && c.status === 'False'
      )
      const agrees = predicted === written.verdict
      agreement.set(controllerName, (agreement.get(controllerName) ?? true) && agrees)
      if (agrees) continue
      calibration.disagreements.push({
        route: routeIdOf(route),
        parentRef: ref,
        predicted:
          predicted === 'ready'
            ? 'ready'
            : failing.map((c) => `${c.type}=False ${c.reason ?? ''}`).join(', '),
        written: written.label
      })
      // the reasons the two sides disagree on: ours where the controller wrote ready, its own otherwise
      const reasons = predicted === 'failed' ? failing.map((c) => c.reason ?? '') : written.reasons
      for (const reason of reasons)
        if (reason && !calibration.distrusted.includes(reason)) calibration.distrusted.push(reason)
    }
    for (const [controllerName, agrees] of agreement) {
      const calibration = byController.get(controllerName)
      if (!calibration) continue
      calibration.of += 1
      if (agrees) calibration.agrees += 1
    }
  }
  return [...byController.values()].sort((a, b) => (a.controllerName < b.controllerName ? -1 : 1))
}
