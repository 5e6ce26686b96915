// Gate mode: apply or locate Routes, watch them until every parent is ready or the deadline passes,
// then diagnose what is not ready. The verdict comes from the model alone; this module only decides
// when to stop looking.
import type { ClusterClient, ManifestDocument, RouteScope } from './cluster/types.ts'
import { reportsConflict } from './diagnose/conflicts.ts'
import { definitelyFailed, missingGatewayParents } from './diagnose/contradictions.ts'
import { explainRoute } from './diagnose/explain.ts'
import { explainMissingRoute } from './diagnose/missing.ts'
import { namespacesToRead } from './diagnose/route-spec.ts'
import { ClusterError, InputError } from './errors.ts'
import type { Settings } from './inputs.ts'
import { expandManifestPaths, loadManifests } from './manifests.ts'
import { evaluateRoute } from './model/evaluate.ts'
import { isRouteObject } from './model/kinds.ts'
import { buildReport } from './model/report.ts'
import { routeId, routeKey, routeRef } from './model/route-id.ts'
import type {
  Report,
  RouteKey,
  RouteKind,
  RouteObject,
  RouteResult,
  RouteVerdict,
  SourcePosition,
  Verdict,
  VerdictOptions,
  World
} from './model/types.ts'
import { applyProbes, probeKey } from './probe/apply.ts'
import { loadTrafficCa } from './probe/ca.ts'
import type { Send } from './probe/http.ts'
import { probeRoutes, type TrafficRun } from './probe/run.ts'
import type { ProbeOutcome } from './probe/verify.ts'
import { ReadyTimes } from './ready-times.ts'
import { Heartbeat } from './report/heartbeat.ts'
import { ProgressLog } from './report/progress.ts'
import { TOOL_VERSION } from './version.ts'
import { scopeText, watchUntil } from './watch-until.ts'

export interface GateDeps {
  cluster: ClusterClient
  /** one line for the log; the caller makes it safe for the workflow log */
  log: (line: string) => void
  cwd: string
  now: () => number
  /** verify-traffic: how a probe request is sent (default: HTTP from this process) */
  send?: Send
}

type Outcome = 'ready' | 'fail-fast' | 'missing-parent' | 'deadline'

/**
 * fail-fast waits this long, from the moment the gate first sees a Route, before that Route's
 * parentRef to a Gateway that does not exist counts as a failure: manifests applied in one go land
 * within a second or two, and a Gateway applied by another step of the same deployment a little
 * later must not fail a Route that only arrived first (or arrived late in the wait).
 */
export const MISSING_PARENT_GRACE_MS = 10_000
const MISSING_PARENT_POLL_MS = 5_000

export async function runGate(settings: Settings, deps: GateDeps): Promise<Report> {
  const started = deps.now()
  const deadline = started + settings.timeoutMs
  const { cluster } = deps
  const docs = settings.manifests.length
    ? await loadManifests(await expandManifestPaths(settings.manifests, deps.cwd), deps.cwd, {
        at: deadline,
        now: deps.now
      })
    : []
  const trafficCa =
    settings.trafficCa === undefined ? undefined : await loadTrafficCa(settings.trafficCa, deps.cwd)
  const inTime = <T>(work: Promise<T>): Promise<T> => beforeDeadline(work, deadline, deps)
  const served = await inTime(cluster.routeVersions())
  const defaultNamespace = settings.namespace ?? cluster.namespace
  if (settings.namespace !== undefined) await inTime(cluster.checkNamespaces([settings.namespace]))

  const sources = new Map<string, SourcePosition>()
  const names: RouteKey[] = []
  // before anything is applied: manifests with nothing to gate are a mistake, not a deployment
  const nothingToGate =
    settings.routes.length === 0 &&
    settings.selector === undefined &&
    !docs.some((doc) => isRouteObject(doc.object))
  if (settings.selector !== undefined && docs.some((doc) => isRouteObject(doc.object))) {
    throw new InputError(
      'Invalid inputs: manifests hold Routes, which are gated by name; drop selector, or apply the Routes in another step and gate them by selector'
    )
  }
  if (docs.length > 0 && !settings.dryRun && nothingToGate) {
    throw new InputError(
      `manifests hold no Route (${ROUTE_KIND_LIST}): nothing to gate among ${docs.length} documents`
    )
  }
  if (docs.length > 0) {
    // check is read-only: it gates the Routes the files name, as the cluster has them
    const located = docs.map((doc) => ({ doc, object: doc.object }))
    const applied = settings.applyManifests
      ? await inTime(applyManifests(docs, settings, deps))
      : located
    if (settings.dryRun) return dryRunReport(applied.length, docs.length, started, deps)
    for (const { doc, object } of applied) {
      if (!isRouteObject(object)) continue
      const key = {
        kind: object.kind,
        namespace: object.metadata.namespace ?? defaultNamespace,
        name: object.metadata.name
      }
      names.push(key)
      sources.set(routeKey(key), { file: doc.file, line: doc.line })
    }
  }
  for (const r of settings.routes) {
    names.push({ kind: r.kind, namespace: r.namespace ?? defaultNamespace, name: r.name })
  }
  const byName = names.length > 0 && settings.selector === undefined
  const scope = buildScope(settings, names, byName, defaultNamespace)
  requireServed(scope.kinds, served, byName)
  scope.kinds = scope.kinds.filter((k) => served.has(k))

  const options: VerdictOptions = {
    conditions: settings.conditions,
    strict: settings.strict,
    final: false
  }
  let world = await inTime(cluster.readWorld([]))
  const ownersUnknown = world.unreadable.filter((u) => /^(gateways|gatewayclasses)\b/.test(u))
  const routes = new Map<string, RouteObject>()
  const verdicts = new VerdictTally()
  const progress = new ProgressLog(started)
  const readyTimes = new ReadyTimes()

  const wanted = new Set(names.map(routeKey))
  const inScope = (route: RouteObject): boolean => !byName || wanted.has(routeKey(routeRef(route)))
  // Every kind and namespace is listed on its own; until each has answered once, the Routes seen so
  // far are not all there are, and "all ready" would be a guess.
  const unlisted = new Map(listTargets(scope))
  const failFast = new FailFast(cluster, verdicts, deps.log)
  /** when the gate first saw each Route: the start of its grace for a missing Gateway */
  const firstSeen = new Map<string, number>()
  const heartbeat = new Heartbeat(deadline)
  const beat = (always: boolean): void => {
    const expected = byName ? wanted.size : undefined
    const line = heartbeat.line([...verdicts.byKey.values()], expected, deps.now(), always)
    if (line !== undefined) deps.log(line)
  }
  const beating = setInterval(() => beat(true), settings.heartbeatMs)
  let missingCheck: NodeJS.Timeout | undefined
  let watching = true
  const outcome = await watchUntil<Outcome>(
    cluster,
    scope,
    { endsAt: deadline, atEnd: 'deadline', endName: 'the deadline', now: deps.now, log: deps.log },
    (stop) => {
      if (settings.failFast) {
        const look = (): void => {
          const graceOver = [...verdicts.byKey].filter(
            ([key]) => deps.now() - (firstSeen.get(key) ?? Infinity) >= MISSING_PARENT_GRACE_MS
          )
          void missingParents(
            cluster,
            graceOver.map(([, verdict]) => verdict)
          ).then((missing) => {
            if (!watching) return
            if (missing.length === 0) {
              missingCheck = setTimeout(look, MISSING_PARENT_POLL_MS)
              return
            }
            deps.log(`fail-fast: ${missing.join(', ')} does not exist`)
            stop('missing-parent')
          })
        }
        missingCheck = setTimeout(look, MISSING_PARENT_GRACE_MS)
      }
      const judge = (changed: RouteObject[]): void => {
        const fresh: RouteVerdict[] = []
        for (const route of changed) {
          const key = routeKey(routeRef(route))
          const verdict = evaluateRoute(route, world, options)
          if (!firstSeen.has(key)) firstSeen.set(key, deps.now())
          verdicts.set(key, verdict)
          readyTimes.observe(key, verdict.verdict, deps.now())
          fresh.push(verdict)
        }
        for (const line of progress.update(fresh, deps.now())) deps.log(line)
        beat(false)
        const state = verdicts.overall(byName ? wanted.size : undefined)
        if (state === 'ready' && unlisted.size === 0) stop('ready')
        else if (state === 'failed' && settings.failFast) failFast.check(stop)
      }
      return {
        onList(kind, namespace, listed) {
          unlisted.delete(targetKey(kind, namespace))
          for (const [key, route] of routes) {
            if (
              route.kind === kind &&
              (namespace === null || route.metadata.namespace === namespace)
            ) {
              routes.delete(key)
              verdicts.delete(key)
            }
          }
          const kept = listed.filter(inScope)
          for (const route of kept) routes.set(routeKey(routeRef(route)), route)
          judge(kept)
        },
        onChange(type, route) {
          if (!inScope(route)) return
          const key = routeKey(routeRef(route))
          if (type === 'DELETED') {
            routes.delete(key)
            verdicts.delete(key)
            deps.log(`${routeId(routeRef(route))}: deleted while waiting`)
            return
          }
          routes.set(key, route)
          judge([route])
        }
      }
    }
  ).finally(() => {
    watching = false
    clearInterval(beating)
    clearTimeout(missingCheck)
  })

  // A list that never answered leaves its Routes unknown, not absent: "does not exist" would be false.
  if (outcome === 'deadline' && unlisted.size > 0) {
    const lists = [...unlisted.values()].join(', ')
    throw new ClusterError(`${cluster.description}: ${lists} not listed before the deadline`)
  }
  if (byName === false && routes.size === 0) {
    throw new InputError(
      `No ${scope.kinds.join('/')} found in ${scopeText(scope)} before the deadline`
    )
  }

  // With verify-traffic, the status being ready starts the second wait: the data plane serving.
  let traffic: TrafficRun | undefined
  if (settings.verifyTraffic && outcome === 'ready') {
    const readyWorld = await inTime(cluster.readWorld([]))
    traffic = await probeRoutes(
      [...verdicts.byKey.values()],
      readyWorld,
      {
        gatewayAddress: settings.gatewayAddress,
        expectStatus: settings.expectStatus,
        ca: trafficCa,
        skipTlsVerify: settings.trafficSkipTlsVerify,
        policy: { allowedCidrs: settings.trafficAllowedCidrs },
        showBody: settings.trafficShowBody,
        successes: settings.trafficSuccesses
      },
      {
        deadline,
        now: deps.now,
        log: deps.log,
        readWorld: () => inTime(cluster.readWorld([])),
        listHttpRoutes: () =>
          inTime(cluster.listRoutes({ kinds: ['HTTPRoute'], namespaces: 'all' })),
        degraded: () => degradedParents(cluster, scope, verdicts, readyWorld, options),
        send: deps.send
      }
    )
  }
  // a parent whose Gateway does not exist will get no status: it is failed now, as at the deadline
  const finalOptions = { ...options, final: outcome === 'deadline' || outcome === 'missing-parent' }
  // Everything ready: the verdicts just reached stand, and there is nothing to diagnose. Reading the
  // cluster again would only delay the deployment (it is most of the gate's reaction time).
  const allReady = outcome === 'ready'
  let known = [...routes.values()]
  let peersUnread = false
  if (!allReady) {
    const notReady = [...verdicts.byKey.values()].filter((v) => v.verdict !== 'ready')
    const graceEnd = Math.max(deadline, deps.now()) + DIAGNOSIS_GRACE_MS
    const peers = conflictPeers(cluster, notReady)
    world = await beforeDeadline(
      cluster.readWorld(namespacesToRead(notReady.map((v) => v.route))),
      graceEnd,
      deps
    )
    const others = await beforeDeadline(peers, graceEnd, deps).catch(() => undefined)
    peersUnread = others === undefined
    const byKey = new Map([...known, ...(others ?? [])].map((r) => [routeKey(routeRef(r)), r]))
    known = [...byKey.values()]
  }
  const notes = new Set<string>()
  if (peersUnread)
    notes.add(
      'Could not list Routes in all namespaces: the Routes a conflict is with (RuleMatchConflict) cannot be named.'
    )
  const results: RouteResult[] = []
  const now = new Date(deps.now())
  const keys = byName ? names.map(routeKey) : [...routes.keys()]
  for (const key of new Set(keys)) {
    const route = routes.get(key)
    if (!route) {
      const [kind, namespace, name] = key.split('/') as [RouteKind, string, string]
      results.push(explainMissingRoute({ kind, namespace, name }, finalOptions.final))
      continue
    }
    const verdict =
      (allReady ? verdicts.byKey.get(key) : undefined) ?? evaluateRoute(route, world, finalOptions)
    verdict.notes.forEach((n) => notes.add(n))
    results.push(
      explainRoute(verdict, world, {
        source: sources.get(key),
        now,
        routes: known
      })
    )
  }
  traffic?.notes.forEach((n) => notes.add(n))
  const probed = settings.verifyTraffic
    ? applyProbes(results, traffic?.outcomes ?? new Map<string, ProbeOutcome>())
    : results
  // a time to ready only for what ends ready (verify-traffic may have failed a ready status)
  const judged = probed.map((result) => {
    const readyAt = result.verdict === 'ready' ? readyTimes.of(routeKey(result)) : undefined
    return readyAt === undefined ? result : { ...result, readyAt }
  })
  world.unreadable.forEach((u) => notes.add(`Could not read ${u}`))
  if (ownersUnknown.length > 0) {
    notes.add(
      `Owner filtering was off while waiting (could not read ${ownersUnknown.join('; ')}): status entries that carry Accepted were judged, whichever controller wrote them. Grant list on gateways and gatewayclasses cluster-wide to judge only the Gateway's own controller.`
    )
  }
  const report = buildReport({
    mode: 'gate',
    routes: judged,
    toolVersion: TOOL_VERSION,
    startedAt: new Date(started),
    finishedAt: new Date(deps.now()),
    timedOut: outcome === 'deadline' || traffic?.timedOut === true,
    notes: [...notes]
  })
  deps.log(summaryLine(report, outcome))
  return report
}

/**
 * Every Route of the kinds whose parents report a conflict with another Route (RuleMatchConflict),
 * so the report can name the Route that holds the hostname and match; undefined when they cannot
 * be read.
 */
async function conflictPeers(
  cluster: ClusterClient,
  verdicts: RouteVerdict[]
): Promise<RouteObject[] | undefined> {
  const kinds = [...new Set(verdicts.filter(reportsConflict).map((v) => v.route.kind))]
  if (kinds.length === 0) return []
  try {
    return await cluster.listRoutes({ kinds, namespaces: 'all' })
  } catch {
    return undefined
  }
}

const ROUTE_KIND_LIST = 'HTTPRoute, GRPCRoute, TLSRoute, TCPRoute, UDPRoute'

// The reads that explain a verdict reached at the deadline get a little time of their own.
const DIAGNOSIS_GRACE_MS = 4000

/**
 * `work`, unless `at` passes first: retries must not hold the run past its deadline. The caller's
 * cluster.close() then ends the requests and retries still going on.
 */
function beforeDeadline<T>(work: Promise<T>, at: number, deps: GateDeps): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => {
        const fault = deps.cluster.lastFault?.() ?? 'no answer'
        reject(
          new ClusterError(`${deps.cluster.description}: ${fault} (still failing at the deadline)`)
        )
      },
      Math.max(0, at - deps.now())
    )
    work.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error instanceof Error ? error : new Error(String(error)))
      }
    )
  })
}

async function applyManifests(
  docs: ManifestDocument[],
  settings: Settings,
  deps: GateDeps
): Promise<Awaited<ReturnType<ClusterClient['apply']>>['applied']> {
  const verb = settings.dryRun ? 'Validating (server-side dry-run)' : 'Applying (server-side apply)'
  deps.log(`${verb} ${docs.length} documents on ${deps.cluster.description}`)
  const { applied } = await deps.cluster.apply(docs, {
    dryRun: settings.dryRun,
    namespace: settings.namespace
  })
  return applied
}

function dryRunReport(applied: number, total: number, started: number, deps: GateDeps): Report {
  deps.log(`Dry run: ${applied} of ${total} documents accepted by the API server; nothing applied`)
  return buildReport({
    mode: 'gate',
    routes: [],
    toolVersion: TOOL_VERSION,
    startedAt: new Date(started),
    finishedAt: new Date(deps.now()),
    notes: [
      `Dry run: all ${total} documents passed server-side validation; nothing was applied and no Route was gated.`
    ]
  })
}

function buildScope(
  settings: Settings,
  names: RouteKey[],
  byName: boolean,
  defaultNamespace: string
): RouteScope {
  if (byName) {
    return {
      kinds: [...new Set(names.map((n) => n.kind))],
      namespaces: settings.allNamespaces ? 'all' : [...new Set(names.map((n) => n.namespace))],
      names
    }
  }
  return {
    kinds: [...settings.kinds],
    namespaces: settings.allNamespaces ? 'all' : [defaultNamespace],
    labelSelector: settings.selector
  }
}

function requireServed(kinds: RouteKind[], served: Map<RouteKind, string>, byName: boolean): void {
  const missing = kinds.filter((k) => !served.has(k))
  if (missing.length === 0) return
  if (byName || missing.length === kinds.length) {
    throw new ClusterError(
      `The API server does not serve ${missing.join(', ')}: install the Gateway API CRDs that define ${missing.length > 1 ? 'them' : 'it'} (experimental channel for older TLSRoute/TCPRoute/UDPRoute versions)`
    )
  }
}

/**
 * Verdicts by Route key with a running count of each verdict: judging one watch event costs O(1), not
 * O(Routes), which with thousands of Routes made the wait quadratic.
 */
class VerdictTally {
  readonly byKey = new Map<string, RouteVerdict>()
  private readonly counts: Record<Verdict, number> = { ready: 0, failed: 0, pending: 0 }

  set(key: string, verdict: RouteVerdict): void {
    this.delete(key)
    this.byKey.set(key, verdict)
    this.counts[verdict.verdict]++
  }

  delete(key: string): void {
    const previous = this.byKey.get(key)
    if (previous) this.counts[previous.verdict]--
    this.byKey.delete(key)
  }

  /** expected: how many Routes must be judged (by name), or undefined for those seen */
  overall(expected: number | undefined): 'ready' | 'failed' | 'pending' {
    const total = expected ?? this.byKey.size
    if (total === 0) return 'pending'
    if (this.counts.failed > 0) return 'failed'
    return this.counts.ready === total ? 'ready' : 'pending'
  }
}

/**
 * fail-fast stops at a failure only when the cluster confirms it: the Services, ReferenceGrants and
 * Namespaces around the failed Routes are read, and a reason they contradict (BackendNotFound while
 * the Service exists) is a controller that has not caught up, so the wait goes on. One read at a time;
 * events that arrive during it are judged by one more read after it.
 */
class FailFast {
  private reading = false
  private again = false
  private readonly told = new Set<string>()

  constructor(
    private readonly cluster: ClusterClient,
    private readonly verdicts: VerdictTally,
    private readonly log: (line: string) => void
  ) {}

  check(stop: (outcome: Outcome) => void): void {
    if (this.reading) {
      this.again = true
      return
    }
    this.reading = true
    void this.confirm(stop).finally(() => (this.reading = false))
  }

  private async confirm(stop: (outcome: Outcome) => void): Promise<void> {
    do {
      this.again = false
      const failed = [...this.verdicts.byKey.values()].filter((v) => v.verdict === 'failed')
      if (failed.length === 0) return
      let evidence: World
      try {
        evidence = await this.cluster.readWorld(namespacesToRead(failed.map((v) => v.route)))
      } catch (error) {
        // unconfirmed is not definite: keep waiting; the deadline still ends the run
        this.log(
          `fail-fast: could not read the evidence (${error instanceof Error ? error.message : String(error)}); waiting`
        )
        return
      }
      const current = [...this.verdicts.byKey.values()].filter((v) => v.verdict === 'failed')
      if (current.some((v) => definitelyFailed(v, evidence))) {
        stop('fail-fast')
        return
      }
      for (const v of current) {
        const key = `${routeKey(routeRef(v.route))}@${v.route.metadata.resourceVersion ?? ''}`
        if (this.told.has(key)) continue
        this.told.add(key)
        this.log(
          `${routeId(routeRef(v.route))}: the controller's failure is contradicted by the cluster (it has not caught up); fail-fast keeps waiting`
        )
      }
    } while (this.again)
  }
}

const targetKey = (kind: RouteKind, namespace: string | null): string =>
  `${kind}/${namespace ?? '*'}`

/**
 * The (kind, namespace) pairs the cluster layer lists one by one, by targetKey, each with how a
 * message names it: "HTTPRoutes in namespace shop", "GRPCRoutes in every namespace".
 */
function listTargets(scope: RouteScope): [string, string][] {
  const namespaces = scope.namespaces === 'all' ? [null] : scope.namespaces
  return scope.kinds.flatMap((kind) =>
    namespaces.map((ns): [string, string] => [
      targetKey(kind, ns),
      `${kind}s in ${ns === null ? 'every namespace' : `namespace ${ns}`}`
    ])
  )
}

/**
 * The parents, by probe key, whose status is no longer ready: the Routes are listed again and judged
 * as before. A list that fails says nothing either way: no parent is taken for degraded on it.
 */
async function degradedParents(
  cluster: ClusterClient,
  scope: RouteScope,
  verdicts: VerdictTally,
  world: World,
  options: VerdictOptions
): Promise<Map<string, string>> {
  const degraded = new Map<string, string>()
  const listed = await cluster.listRoutes(scope).catch(() => undefined)
  if (listed === undefined) return degraded
  const current = new Map(listed.map((r) => [routeKey(routeRef(r)), r]))
  for (const [key, before] of verdicts.byKey) {
    const ref = routeRef(before.route)
    const route = current.get(key)
    if (route === undefined) {
      for (const p of before.parents) degraded.set(probeKey(ref, p.parentRef), 'the Route is gone')
      continue
    }
    for (const p of evaluateRoute(route, world, options).parents) {
      if (p.verdict === 'ready') continue
      const f = p.findings[0]
      const why =
        f?.condition === undefined ? (f?.reason ?? p.verdict) : `${f.condition} ${f.reason}`
      degraded.set(probeKey(ref, p.parentRef), `${why}${f?.message ? `: ${f.message}` : ''}`)
    }
  }
  return degraded
}

/** "Gateway infra/edge (parent of HTTPRoute shop/web)" for each parent the reads prove missing. */
/** The parent Gateways of `judged` pending Routes that the gate's own read finds absent. */
async function missingParents(cluster: ClusterClient, judged: RouteVerdict[]): Promise<string[]> {
  const waiting = judged.filter((v) => v.verdict === 'pending')
  if (waiting.length === 0) return []
  const namespaces = new Set(waiting.flatMap((v) => v.parents.map((p) => p.parentRef.namespace)))
  // a read that fails proves nothing: look again later
  const world = await cluster.readWorld([...namespaces]).catch(() => undefined)
  if (world === undefined) return []
  return waiting.flatMap((v) =>
    missingGatewayParents(v, world).map(
      (ref) => `Gateway ${ref.namespace}/${ref.name} (parent of ${routeId(routeRef(v.route))})`
    )
  )
}

function summaryLine(report: Report, outcome: Outcome): string {
  const { routes, ready, failed, pending } = report.counts
  const why =
    outcome === 'deadline'
      ? ' (deadline reached)'
      : outcome === 'fail-fast' || outcome === 'missing-parent'
        ? ' (fail-fast)'
        : ''
  return `Verdict: ${report.verdict}${why}: ${ready} of ${routes} Routes ready, ${failed} failed, ${pending} pending, after ${((report.elapsedMs ?? 0) / 1000).toFixed(1)}s`
}
