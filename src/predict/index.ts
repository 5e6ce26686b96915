// route-gate predict: what a conformant controller would write for the Routes of a pull request, from
// the cluster's objects overlaid with the manifests, before anything is applied. Pure: no I/O.
// Problems come from the diagnosis (one catalogue of titles, remediations, evidence and fix YAML),
// which the caller hands in: predict decides the verdicts, and imports no diagnosis.
import type { ManifestDocument } from '../read/manifests.ts'
import { delegatorOf } from '../rules/delegation.ts'
import { FeatureLedger } from './features.ts'
import { conflictState, contested } from './contested.ts'
import type { ConflictState } from './contested.ts'
import type { Settings } from '../inputs/settings.ts'
import { routeParentRefs } from '../model/route-spec.ts'
import { compareText } from '../model/route-id.ts'
import type {
  Calibration,
  FixTarget,
  KubeObject,
  Finding,
  ParentResult,
  ParentVerdict,
  PredictReport,
  PredictVerdict,
  PredictionSource,
  ReportVerdict,
  RouteObject,
  RouteResult,
  RouteVerdict,
  SourcePosition,
  Verdict,
  World
} from '../model/types.ts'
import { calibrate } from './calibrate.ts'
import { proveFixes } from './prove.ts'
import { index, overlay } from './overlay.ts'
import type { NeededKind } from './overlay.ts'
import { addToDump, predictParent, predictedConditions, verdictOf } from './rules.ts'
import type { ParentPrediction } from './rules.ts'

export { overlay } from './overlay.ts'

/** The diagnosis of a judged Route: its problems, evidence and fixes (diagnose/explain.ts). */
export type ExplainRoute = (
  verdict: RouteVerdict,
  world: World,
  options: { source: SourcePosition; routes: RouteObject[] }
) => RouteResult

export interface PredictInput {
  /** from a dump or a live read-only list (may be empty) */
  cluster: ManifestDocument[]
  /** the pull request's documents, with file and line */
  manifests: ManifestDocument[]
  source: PredictionSource & {
    /** kinds the source provably lists completely, e.g. 'Service' or 'Gateway' */
    complete: string[]
  }
  now: Date
  /** conditions: the required types; namespace: where manifests without one land (default 'default') */
  settings: Pick<Settings, 'strict' | 'conditions' | 'namespace'>
  toolVersion: string
  explain: ExplainRoute
  /** called before each Route's work: the caller's deadline throws from it */
  checkpoint?: (step: Checkpoint) => void
}

/** How far a prediction got: the Routes of the cluster calibrated, then those of the manifests. */
export interface Checkpoint {
  stage: 'calibrating' | 'predicting'
  done: number
  of: number
}

const TRAEFIK = 'traefik.io/gateway-controller'

/** Whys, missing kinds and notes gathered over the whole run. */
interface Run extends ConflictState {
  required: string[]
  calibration: Map<string, Calibration>
  features: FeatureLedger
  newGateways: Set<string>
  unknownReasons: Set<string>
  missingKinds: Set<NeededKind>
  notes: Set<string>
  explain: ExplainRoute
}

/**
 * A failing condition whose reason this controller disagreed on for existing Routes becomes unknown:
 * the calibration showed that the controller does not write what the spec predicts there.
 */
function distrust(prediction: ParentPrediction, run: Run): ParentPrediction {
  const calibration = prediction.controllerName
    ? run.calibration.get(prediction.controllerName)
    : undefined
  if (!calibration || calibration.distrusted.length === 0) return prediction
  const out = { ...prediction }
  for (const key of ['accepted', 'resolvedRefs'] as const) {
    const outcome = out[key]
    if (outcome?.status !== 'False' || !calibration.distrusted.includes(outcome.reason)) continue
    const example = calibration.disagreements.find(
      (d) => d.predicted.includes(outcome.reason) || d.written.includes(outcome.reason)
    )
    out[key] = {
      status: 'Unknown',
      why: `Predicted ${outcome.reason} (${outcome.message}), but ${calibration.controllerName} disagreed on ${outcome.reason} for existing Routes${example ? ` (${example.route}: predicted ${example.predicted}, written ${example.written})` : ''}, so it is not predicted for this controller.`
    }
  }
  return out
}

/**
 * A Route the rules call attached, using a feature its controller refused on an existing Route of
 * the dump (and accepted on none): refused the same way, that Route named as the evidence.
 */
function refusedFeature(
  route: RouteObject,
  prediction: ParentPrediction,
  run: Run
): ParentPrediction {
  const controllerName = prediction.controllerName
  if (prediction.accepted?.status !== 'True' || controllerName === undefined) return prediction
  const refusal = run.features.refusalFor(route, controllerName)
  if (refusal === undefined) return prediction
  const { condition } = refusal
  const reason = condition.reason ?? 'Accepted=False'
  return {
    ...prediction,
    accepted: {
      status: 'False',
      reason,
      message: `${controllerName} wrote Accepted=False (${reason}${condition.message ? `: ${condition.message}` : ''}) on ${refusal.route}, which also uses ${refusal.feature}, and accepts no Route in the dump that does.`
    }
  }
}

function whyOf(prediction: ParentPrediction): string[] {
  const outcomes = [prediction.parent, prediction.accepted, prediction.resolvedRefs]
  return outcomes.flatMap((o) => (o?.status === 'Unknown' ? [o.why] : []))
}

function findingsOf(prediction: ParentPrediction, verdict: PredictVerdict, run: Run): Finding[] {
  const controller = prediction.controllerName ? { controllerName: prediction.controllerName } : {}
  if (prediction.parent?.status === 'False') {
    return [{ reason: 'NoStatus', severity: 'error', message: prediction.parent.message }]
  }
  const findings: Finding[] = predictedConditions(prediction)
    .filter((c) => c.status === 'False')
    .map((c) => ({
      condition: c.type,
      reason: c.reason ?? '',
      severity: run.required.includes(c.type) ? 'error' : 'warning',
      ...(c.message ? { message: c.message } : {}),
      ...controller
    }))
  for (const warning of prediction.warnings)
    findings.push({ ...warning, severity: 'warning', ...controller })
  if (verdict === 'unknown') {
    const outcomes = [prediction.parent, prediction.accepted, prediction.resolvedRefs]
    const needs = [
      ...new Set(outcomes.flatMap((o) => (o?.status === 'Unknown' && o.needs ? [o.needs] : [])))
    ]
    findings.push({
      reason: 'Unpredictable',
      severity: 'warning',
      message: whyOf(prediction).join(' '),
      ...(needs.length > 0 ? { needs } : {})
    })
  }
  return findings
}

/** The model's verdict vocabulary for the diagnosis: unknown is a parent still to be decided. */
const AS_VERDICT: Record<PredictVerdict, Verdict> = {
  ready: 'ready',
  failed: 'failed',
  unknown: 'pending'
}

function combine(verdicts: PredictVerdict[]): PredictVerdict {
  if (verdicts.includes('failed')) return 'failed'
  return verdicts.includes('unknown') ? 'unknown' : 'ready'
}

function note(prediction: ParentPrediction, run: Run): void {
  if (prediction.controllerName === TRAEFIK && prediction.resolvedRefs?.status === 'True') {
    run.notes.add(
      'Traefik writes ResolvedRefs=False (BackendNotFound) for a Service without EndpointSlices; the cluster source does not say whether the Services of its Routes have ready endpoints, so their ready is predicted from the Service alone.'
    )
  }
  for (const outcome of [prediction.parent, prediction.accepted, prediction.resolvedRefs]) {
    if (outcome?.status !== 'Unknown') continue
    if (outcome.needs) {
      run.missingKinds.add(outcome.needs)
      run.unknownReasons.add(`${addToDump(outcome.needs)}.`)
    } else run.unknownReasons.add(outcome.why)
  }
}

/**
 * A Route without parentRefs attaches to nothing, unless another Route delegates to it (kgateway):
 * then whether it serves is that controller's decision, which predict does not model.
 */
function orphanFinding(route: RouteObject, run: Run): Finding {
  const delegator = delegatorOf(route, run.objects.routes)
  if (delegator === undefined) {
    return {
      reason: 'NoParentRefs',
      severity: 'error',
      message: 'The Route attaches to nothing: it has no spec.parentRefs.'
    }
  }
  const { namespace, name } = delegator.metadata
  return {
    reason: 'Unpredictable',
    severity: 'warning',
    message: `The Route has no spec.parentRefs, but ${delegator.kind} ${namespace}/${name} delegates to it through a backendRef of kind HTTPRoute (route delegation, as kgateway serves it): whether its controller accepts it is not predicted.`
  }
}

function predictRoute(
  route: RouteObject,
  source: { file: string; line: number },
  run: Run
): RouteResult<ReportVerdict> {
  const predictions = routeParentRefs(route).map((ref, i) => {
    // distrust after the conflict rules, so their reasons are calibrated too; before the feature
    // evidence, whose reasons come from the very Routes calibration disagrees on
    const judged = distrust(contested(route, i, predictParent(route, ref, run.objects), run), run)
    const prediction = refusedFeature(route, judged, run)
    note(prediction, run)
    return { prediction, verdict: verdictOf(prediction, run.required) }
  })
  const parents: ParentVerdict[] = predictions.map(({ prediction, verdict }) => ({
    parentRef: prediction.parentRef,
    verdict: AS_VERDICT[verdict],
    controllerName: prediction.controllerName ?? null,
    conditions: predictedConditions(prediction),
    findings: findingsOf(prediction, verdict, run),
    otherControllers: []
  }))
  const orphan = parents.length === 0 ? orphanFinding(route, run) : undefined
  const routeFindings: Finding[] = orphan ? [orphan] : []
  const verdicts = predictions.map((p) => p.verdict)
  const verdict =
    orphan === undefined ? combine(verdicts) : orphan.severity === 'error' ? 'failed' : 'unknown'
  const explained = run.explain(
    {
      route,
      verdict: AS_VERDICT[verdict],
      parents,
      findings: routeFindings,
      orphans: [],
      notes: []
    },
    run.objects.world,
    { source, routes: run.objects.routes }
  )
  const { orphans: _orphans, ...rest } = explained
  return {
    ...rest,
    verdict,
    parents: explained.parents.map((parent, i): ParentResult<ReportVerdict> => {
      const predicted = predictions[i]
      const why = predicted ? whyOf(predicted.prediction) : []
      return {
        ...parent,
        verdict: predicted?.verdict ?? 'unknown',
        ...(predicted?.verdict === 'unknown' && why.length > 0 ? { why } : {})
      }
    })
  }
}

const CLUSTER_SCOPED = new Set(['Namespace', 'GatewayClass'])

/** Where the pull request defines the object a fix changes, its namespace defaulted as overlay does. */
function definedIn(
  manifests: ManifestDocument[],
  fallback = 'default'
): (target: FixTarget) => { file: string; line: number } | undefined {
  const at = new Map<string, { file: string; line: number }>()
  for (const { object, file, line } of manifests) {
    const metadata = (object as Partial<KubeObject>).metadata
    if (typeof metadata?.name !== 'string' || typeof object.kind !== 'string') continue
    const namespace = CLUSTER_SCOPED.has(object.kind) ? '' : (metadata.namespace ?? fallback)
    at.set(`${object.kind}\u0000${namespace}\u0000${metadata.name}`, { file, line })
  }
  return (t) => at.get(`${t.kind}\u0000${t.namespace ?? ''}\u0000${t.name}`)
}

/** The cluster source as the report names it, with its age when it says when it was taken. */
function sourceOf(input: PredictInput): PredictionSource {
  const { complete: _complete, ...source } = input.source
  if (source.takenAt !== undefined) {
    const taken = Date.parse(source.takenAt)
    if (!Number.isNaN(taken))
      source.ageSeconds = Math.max(0, Math.round((input.now.getTime() - taken) / 1000))
  }
  return source
}

const ATTENTION: Record<ReportVerdict, number> = { failed: 0, unknown: 1, pending: 2, ready: 3 }

export function predict(input: PredictInput): PredictReport {
  const cluster = input.cluster.map((d) => d.object)
  const layered = overlay(cluster, input.manifests, input.settings.namespace)
  // calibration reads the cluster's Routes beside the Routes the change adds: a conflict a cluster
  // Route lost to one of them (a dump taken while it existed) is then explained, not distrusted
  const clusterOnly = index([...layered.cluster, ...layered.added], input.source.complete)
  const required = input.settings.conditions
  const features = new FeatureLedger()
  const calibration = calibrate(
    clusterOnly,
    required,
    (done, of) => input.checkpoint?.({ stage: 'calibrating', done, of }),
    features,
    layered.added
  )
  const run: Run = {
    ...conflictState(index(layered.objects, input.source.complete), layered.created),
    required,
    calibration: new Map(calibration.map((c) => [c.controllerName, c])),
    features,
    newGateways: layered.newGateways,
    unknownReasons: new Set(),
    missingKinds: new Set(),
    notes: new Set(),
    explain: input.explain
  }
  const predicted = layered.routes.map(({ route, file, line }, done) => {
    input.checkpoint?.({ stage: 'predicting', done, of: layered.routes.length })
    return predictRoute(route, { file, line }, run)
  })
  const routes = proveFixes(predicted, {
    objects: () => run.objects,
    created: layered.created,
    required,
    definedAt: definedIn(input.manifests, input.settings.namespace)
  }).sort(
    (a, b) =>
      ATTENTION[a.verdict] - ATTENTION[b.verdict] ||
      compareText(a.kind, b.kind) ||
      compareText(a.namespace, b.namespace) ||
      compareText(a.name, b.name)
  )
  const count = (verdict: ReportVerdict): number =>
    routes.filter((r) => r.verdict === verdict).length
  const source = sourceOf(input)
  for (const c of calibration) {
    if (c.distrusted.length > 0)
      run.unknownReasons.add(
        `${c.controllerName} disagreed with predict on ${c.distrusted.join(', ')} for existing Routes: those reasons are not predicted for it.`
      )
  }
  const notes = [...run.notes]
  return {
    schemaVersion: 1,
    tool: { name: 'route-gate', version: input.toolVersion },
    mode: 'predict',
    verdict: combine(routes.map((r) => r.verdict as PredictVerdict)),
    counts: {
      routes: routes.length,
      ready: count('ready'),
      failed: count('failed'),
      pending: 0,
      unknown: count('unknown')
    },
    routes,
    ...(notes.length > 0 ? { notes } : {}),
    prediction: {
      source,
      calibration,
      unknownReasons: [...run.unknownReasons],
      newGateways: [...layered.newGateways],
      missingKinds: [...run.missingKinds],
      ignored: layered.ignored
    }
  }
}
