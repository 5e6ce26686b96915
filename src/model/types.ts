// The shared vocabulary of route-gate: Kubernetes objects as read (untyped beyond what we check), the
// World the verdict and the diagnosis read, and the report (docs/report.schema.json).

export type Verdict = 'ready' | 'failed' | 'pending'

/**
 * What predict says of a parent, a Route or a run: `unknown` when the objects cannot tell (it never
 * appears outside mode "predict").
 */
export type PredictVerdict = 'ready' | 'failed' | 'unknown'

/** Any verdict a report may carry: the gate's and monitor's, or predict's. */
export type ReportVerdict = Verdict | 'unknown'

export const ROUTE_KINDS = ['HTTPRoute', 'GRPCRoute', 'TLSRoute', 'TCPRoute', 'UDPRoute'] as const
export type RouteKind = (typeof ROUTE_KINDS)[number]

export const GATEWAY_GROUP = 'gateway.networking.k8s.io'
/** The experimental group of XListenerSet, the ListenerSet before it became standard (v1.5). */
export const EXPERIMENTAL_GROUP = 'gateway.networking.x-k8s.io'

/** A Route named by kind, namespace and name: how the gate asks for it and keys it. */
export interface RouteKey {
  kind: RouteKind
  namespace: string
  name: string
}

/** Any Kubernetes object as it arrives from the API server or a dump. Fields below metadata are unchecked. */
export interface KubeObject {
  apiVersion: string
  kind: string
  metadata: {
    name: string
    namespace?: string
    generation?: number
    labels?: Record<string, string>
    annotations?: Record<string, string>
    resourceVersion?: string
    uid?: string
    creationTimestamp?: string
    deletionTimestamp?: string
    finalizers?: string[]
  }
  spec?: unknown
  status?: unknown
}

/** Where a Route's manifest came from (applied file, or dump), for annotations. */
export interface SourcePosition {
  file: string
  line: number
}

/** A Route object plus where it came from. */
export interface RouteObject extends KubeObject {
  kind: RouteKind
  metadata: KubeObject['metadata'] & { namespace: string }
}

/**
 * Everything around the Routes that verdicts and diagnosis may read. In live mode the cluster layer
 * fills it; in snapshot mode the dump does. A kind that could not be read is listed in `unreadable`
 * (e.g. "services in namespace shop: forbidden (list)") and its array is left empty.
 */
export interface World {
  gatewayClasses: KubeObject[]
  gateways: KubeObject[]
  namespaces: KubeObject[]
  services: KubeObject[]
  referenceGrants: KubeObject[]
  /**
   * ListenerSets (gateway.networking.k8s.io) and XListenerSets (gateway.networking.x-k8s.io), each
   * with its apiVersion and kind; absent in a World put together without them.
   */
  listenerSets?: KubeObject[]
  /** a dump's BackendTLSPolicies (gateway.networking.k8s.io); absent where they were not read */
  backendTLSPolicies?: KubeObject[]
  unreadable: string[]
  /** true when a kind was simply not present in the source (e.g. a dump without Services). */
  partial?: boolean
  /** the apiVersion the cluster serves for a Gateway API kind (discovery), e.g. ReferenceGrant: gateway.networking.k8s.io/v1 */
  served?: Record<string, string>
}

export interface ParentRef {
  group: string
  kind: string
  namespace: string
  name: string
  sectionName?: string
  port?: number
}

export type ConditionStatus = 'True' | 'False' | 'Unknown'

export interface Condition {
  type: string
  status: ConditionStatus
  reason?: string
  message?: string
  observedGeneration?: number
  lastTransitionTime?: string
  /** false when observedGeneration < the Route's generation */
  fresh?: boolean
}

export type Severity = 'error' | 'warning'

/**
 * What the model found wrong with one parent (or the whole Route), before diagnosis turns it into a
 * Problem with a title and a remediation. Synthetic reasons: NoStatus, StaleStatus, ConditionMissing,
 * ConditionUnknown, NoParentRefs, FallBack, Terminating.
 */
export interface Finding {
  /** the condition type the finding comes from; absent for synthetic findings */
  condition?: string
  /** one reason (comma-joined reasons are split into several findings) */
  reason: string
  severity: Severity
  /** the controller's message, verbatim */
  message?: string
  /** Unpredictable: the kinds the cluster source would have to list for predict to decide */
  needs?: string[]
  /** NotSynced: what the cluster does not carry yet, and at the deadline its last writer */
  waitingFor?: string
  /** ConditionUnknown: the condition's own reason (e.g. Pending) */
  conditionReason?: string
  /** the controllerName of the status entry it came from, when there was one */
  controllerName?: string
  /** facts behind synthetic findings */
  generation?: number
  observedGeneration?: number
  lastTransitionTime?: string
  /** Terminating: when deletion was asked for, and the finalizers that still hold the Route */
  deletionTimestamp?: string
  finalizers?: string[]
}

export interface Problem {
  condition?: string
  reason: string
  standard?: boolean
  severity: Severity
  title: string
  message?: string
  remediation: string
  evidence?: string[]
  /** the object changes that would fix it, each proven by prediction before it is printed */
  fixes?: Fix[]
}

/** The object a fix changes, named as kubectl names it. */
export interface FixTarget {
  apiVersion: string
  kind: string
  namespace?: string
  name: string
}

/**
 * What predicting the world with the fix applied showed. proven: the problem goes and no Route loses
 * a parent it has; detaches: the Routes in `detaches` would lose one; unproven: `text` says what was
 * in the way (an unknown, a proof budget spent).
 */
export interface FixProof {
  state: 'proven' | 'detaches' | 'unproven'
  text: string
  detaches?: string[]
}

export interface Fix {
  action: 'patch' | 'create' | 'delete' | 'command'
  target: FixTarget
  /** patch and create: the whole object after the change, without status or server-set metadata */
  object?: KubeObject
  /** command: what to run, for an object that exists only in the cluster */
  command?: string
  /** predict: where the object is defined in the pull request's manifests */
  file?: string
  line?: number
  proof?: FixProof
}

/** One hop of the path Route → parent → listener → backend, for the reader of a failure. */
export interface ChainLink {
  label: string
  state: 'ok' | 'broken' | 'unknown'
}

/** One parent of a Route in a report; V is ReportVerdict in mode "predict" (PredictReport). */
export interface ParentResult<V extends ReportVerdict = Verdict> {
  /** normalized: group, kind and namespace defaulted as the API server and the godoc do */
  parentRef: ParentRef
  verdict: V
  controllerName?: string | null
  /** predict: the conditions a conformant controller would write (type, status, reason, message) */
  conditions?: Condition[]
  /** predict, unknown: why the objects cannot tell */
  why?: string[]
  problems: Problem[]
  /** for parents that are not ready: where along Route → parent → listener → backends it breaks */
  chain?: ChainLink[]
  /** verify-traffic: what real requests through the parent's listeners found */
  probe?: ProbeResult
}

export type ProbeState = 'serving' | 'not-serving' | 'unreachable' | 'not-probed'

/** One answer of the data plane (or why none came), as the report keeps it: short and made safe. */
export interface ProbeAnswer {
  method: string
  /** scheme://host:port/path?query as sent (host: the Host header and SNI) */
  url: string
  /** where the request went */
  address: string
  status?: number
  /** the headers any reader may see (content-type, content-length, server, via, location without its query), cut short */
  headers?: Record<string, string>
  durationMs: number
  /** connection refused, timeout, TLS failure: why no answer came */
  error?: string
  /** traffic-show-body, report file only: the first bytes of the body, control characters removed */
  excerpt?: string
  /** traffic-show-body, report file only: every header, cookies and credentials masked */
  allHeaders?: Record<string, string>
}

export interface ProbeResult {
  state: ProbeState
  /** not-probed: why; not-serving and unreachable: what the last answer means */
  why?: string
  /** rounds of requests sent */
  attempts?: number
  /** serving: the rounds in a row in which every request was routed (traffic-successes) */
  successes?: number
  /** the answer that decided the state (the first request not served, or the last one served) */
  last?: ProbeAnswer
  /** what the same listener answers for a hostname and path no Route claims */
  noRoute?: ProbeAnswer
  /** false when TLS certificates were not verified (the skip-TLS-verify opt-in) */
  tlsVerified?: boolean
}

export interface RouteResult<V extends ReportVerdict = Verdict> {
  kind: RouteKind
  apiVersion?: string
  namespace: string
  name: string
  generation?: number
  verdict: V
  source?: SourcePosition
  /**
   * When the gate saw the Route become ready (ISO time); absent when it was ready at its first
   * read, since how long it had been ready is not known, and outside gate mode.
   */
  readyAt?: string
  parents: ParentResult<V>[]
  problems?: Problem[]
  orphans?: Record<string, unknown>[]
}

export type TransitionState = Verdict | 'absent'

export interface Transition {
  kind: string
  namespace: string
  name: string
  from: TransitionState
  to: TransitionState
}

export type Mode = 'gate' | 'snapshot' | 'monitor' | 'predict'

/** Where predict's cluster objects came from. */
export interface PredictionSource {
  kind: 'dump' | 'live' | 'none'
  /** when the dump was taken (ISO time) */
  takenAt?: string
  /** the dump's age at prediction time, in seconds */
  ageSeconds?: number
  context?: string
  /** the API server, without credentials */
  cluster?: string
  /**
   * A dump without route-gate dump's header: the kinds taken to be listed in full, because it holds
   * at least one object of each (absent with partial)
   */
  assumedComplete?: string[]
  /** the dump was declared cut by namespace or label: no kind in it is taken to be complete */
  partial?: boolean
}

/** Self-calibration of one controller: predict its Routes that carry status, from spec alone. */
export interface Calibration {
  controllerName: string
  /** existing Routes whose predicted verdicts for this controller's parents match what it wrote */
  agrees: number
  /** existing Routes with status from this controller that were compared */
  of: number
  /** where prediction and controller differ, one per parent */
  disagreements: CalibrationDisagreement[]
  /** reasons whose predictions for this controller become unknown, because it disagreed on them */
  distrusted: string[]
}

export interface CalibrationDisagreement {
  route: string
  parentRef: ParentRef
  /** "Accepted=False NotAllowedByListeners" or "ready" */
  predicted: string
  written: string
}

/** A manifest document predict did not take (unknown kind, not an object). */
export interface IgnoredDocument {
  file: string
  line: number
  kind?: string
  name?: string
  why: string
}

/** predict: what the prediction rests on. */
export interface Prediction {
  source: PredictionSource
  calibration: Calibration[]
  /** why parents are unknown, once each (e.g. "the dump holds no Services: add them with route-gate dump") */
  unknownReasons: string[]
  /** Gateways the manifests create: predicted from spec, no controller has seen them yet */
  newGateways: string[]
  /** kinds the dump lacks that the prediction needed: what to add to the dump */
  missingKinds: string[]
  ignored: IgnoredDocument[]
}

/** The report; V is ReportVerdict (with `unknown`) in mode "predict" only: see PredictReport. */
export interface Report<V extends ReportVerdict = Verdict> {
  schemaVersion: 1
  tool?: { name: string; version: string }
  mode: Mode
  verdict: V
  /** `unknown` is counted in mode "predict" only */
  counts: { routes: number; ready: number; failed: number; pending: number; unknown?: number }
  startedAt?: string
  finishedAt?: string
  elapsedMs?: number
  timedOut?: boolean
  routes: RouteResult<V>[]
  transitions?: Transition[]
  /** notes that apply to the whole run, e.g. "observedGeneration absent: freshness not proven" */
  notes?: string[]
  /** mode "predict": source, calibration and why parents are unknown */
  prediction?: Prediction
}

/** Any report a renderer takes: the gate's, the monitor's or predict's. */
export type AnyReport = Report<ReportVerdict>
export type AnyRouteResult = RouteResult<ReportVerdict>
export type AnyParentResult = ParentResult<ReportVerdict>

/** What `route-gate predict` hands to the renderers: verdicts may be `unknown`. */
export type PredictReport = Report<ReportVerdict> & { mode: 'predict'; prediction: Prediction }

/** Options of the verdict rules. */
export interface VerdictOptions {
  /** required condition types, default ['Accepted', 'ResolvedRefs'] */
  conditions: string[]
  /** PartiallyInvalid=True fails the parent instead of warning */
  strict: boolean
  /** at the deadline: every pending parent becomes failed, with a synthetic finding that says why */
  final: boolean
}

/** The model's judgement of one spec parentRef, before diagnosis. */
export interface ParentVerdict {
  parentRef: ParentRef
  verdict: Verdict
  /** controllerName of the judged entry (null when no entry was judged) */
  controllerName: string | null
  /** the judged entry's conditions, each with `fresh` set */
  conditions: Condition[]
  /** what is wrong or not yet known; empty when ready without warnings */
  findings: Finding[]
  /** entries for this parentRef written by other controllers: shown, not judged */
  otherControllers: { controllerName: string; conditions: Condition[] }[]
}

/** The model's judgement of one Route, before diagnosis. */
export interface RouteVerdict {
  route: RouteObject
  verdict: Verdict
  parents: ParentVerdict[]
  /** findings about the Route as a whole (NoParentRefs, Terminating) */
  findings: Finding[]
  /** status entries that belong to no spec parentRef */
  orphans: Record<string, unknown>[]
  /** things worth saying once in the report (missing observedGeneration, observedGeneration > generation, an entry taken without its port) */
  notes: string[]
}
