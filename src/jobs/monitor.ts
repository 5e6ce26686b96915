// Monitor mode: judge every Route in scope now, with the gate's verdict rules and diagnosis, and say
// what changed since the previous run. With a watch window it keeps a list+watch open and reports
// each change as it happens: status that moves without anyone touching the Route.
import { proveLive } from './prove-live.ts'
import path from 'node:path'
import type { ClusterClient, RouteScope } from '../cluster/types.ts'
import { explainRoute } from '../diagnose/explain.ts'
import { ClusterError, InputError } from '../runtime/errors.ts'
import { readUserFile, writeUserFile } from '../read/files.ts'
import { namespacesToRead } from '../model/route-spec.ts'
import type { FailOn, Settings } from '../inputs/settings.ts'
import { evaluateRoute } from '../model/evaluate.ts'
import { buildReport } from '../model/report.ts'
import { routeId, routeKey, routeRef } from '../model/route-id.ts'
import {
  changeOf,
  diffStates,
  isDegradation,
  parseRouteStates,
  TransitionLog,
  type RouteState
} from '../model/transitions.ts'
import type {
  Report,
  RouteObject,
  RouteResult,
  RouteVerdict,
  Transition,
  VerdictOptions,
  World
} from '../model/types.ts'
import { runSnapshot } from './snapshot.ts'
import { TOOL_VERSION } from '../runtime/version.ts'
import { scopeText, watchUntil } from './watch-until.ts'

export interface MonitorDeps {
  cluster: ClusterClient
  /** one line for the log; the caller makes it safe for the workflow log */
  log: (line: string) => void
  now: () => number
  /** the Routes' states at the previous run; undefined on the first run */
  previous?: RouteState[]
}

const BASELINE_NOTE =
  'No previous state: this run is the baseline, and changes are reported from the next run on.'

export async function runMonitor(settings: Settings, deps: MonitorDeps): Promise<Report> {
  const started = deps.now()
  const { cluster } = deps
  const served = await cluster.routeVersions()
  if (settings.namespace !== undefined) await cluster.checkNamespaces([settings.namespace])
  const kinds = settings.kinds.filter((k) => served.has(k))
  if (kinds.length === 0) {
    throw new ClusterError(
      `The API server does not serve ${settings.kinds.join(', ')}: install the Gateway API CRDs`
    )
  }
  const scope: RouteScope = {
    kinds,
    namespaces: settings.allNamespaces ? 'all' : [settings.namespace ?? cluster.namespace],
    labelSelector: settings.selector
  }
  const options: VerdictOptions = {
    conditions: settings.conditions,
    strict: settings.strict,
    final: false
  }
  const owners = await cluster.readWorld([])
  const initial = await cluster.listRoutes(scope)
  deps.log(`Monitoring ${initial.length} Routes (${kinds.join(', ')}) in ${scopeText(scope)}`)

  const baseline = initial.map((r) => stateOf(evaluateRoute(r, owners, options)))
  let routes = initial
  let window: TransitionLog | undefined
  if (settings.watchDurationMs !== undefined) {
    window = new TransitionLog(baseline)
    routes = await watchWindow(scope, settings.watchDurationMs, window, {
      ...deps,
      judge: (route) => evaluateRoute(route, owners, options),
      initial
    })
  }

  const { results, notes } = await explainAll(routes, cluster, options, owners, deps.now())
  const transitions: Transition[] =
    window === undefined
      ? diffStates(deps.previous, results)
      : [...diffStates(deps.previous, baseline), ...window.finish(results)]
  if (deps.previous === undefined) notes.unshift(BASELINE_NOTE)
  const report = buildReport({
    mode: 'monitor',
    routes: results,
    toolVersion: TOOL_VERSION,
    startedAt: new Date(started),
    finishedAt: new Date(deps.now()),
    transitions,
    notes
  })
  deps.log(monitorSummaryLine(report))
  return report
}

/** Offline monitor: a dump judged as the snapshot judges it, compared with the previous state. */
export async function runMonitorSnapshot(
  settings: Settings,
  cwd: string,
  previous: RouteState[] | undefined
): Promise<Report> {
  const snapshot = await runSnapshot(settings, cwd)
  return buildReport({
    mode: 'monitor',
    routes: snapshot.routes,
    toolVersion: TOOL_VERSION,
    transitions: diffStates(previous, snapshot.routes),
    notes: [...(previous === undefined ? [BASELINE_NOTE] : []), ...(snapshot.notes ?? [])]
  })
}

interface WindowDeps extends MonitorDeps {
  judge: (route: RouteObject) => RouteVerdict
  initial: RouteObject[]
}

/** Keeps a list+watch open for `durationMs`, logging each transition as it happens; returns the Routes at the end. */
function watchWindow(
  scope: RouteScope,
  durationMs: number,
  window: TransitionLog,
  deps: WindowDeps
): Promise<RouteObject[]> {
  const routes = new Map(deps.initial.map((r) => [routeKey(routeRef(r)), r]))
  const stamp = (): string => new Date(deps.now()).toISOString()
  const report = (t: Transition | undefined, verdict?: RouteVerdict): void => {
    if (t === undefined) return
    const why = verdict === undefined ? '' : reasonsText(verdict)
    deps.log(`${stamp()} ${CHANGE_WORD[changeOf(t)]} ${routeId(t)}: ${t.from} → ${t.to}${why}`)
  }
  // the last verdict seen of each Route, so that a Route staying pending is logged once
  const seen = new Map(deps.initial.map((r) => [routeKey(routeRef(r)), deps.judge(r).verdict]))
  const judge = (route: RouteObject): void => {
    const key = routeKey(routeRef(route))
    routes.set(key, route)
    const verdict = deps.judge(route)
    const recorded = window.observe(stateOf(verdict))
    if (recorded === undefined && verdict.verdict === 'pending' && seen.get(key) !== 'pending') {
      deps.log(
        `${stamp()} ${routeId(routeRef(route))}: pending${reasonsText(verdict)}; waiting for it to settle`
      )
    }
    seen.set(key, verdict.verdict)
    report(recorded, verdict)
  }
  const drop = (key: string): void => {
    const route = routes.get(key)
    if (route === undefined) return
    routes.delete(key)
    seen.delete(key)
    report(window.remove(routeRef(route)))
  }
  deps.log(`Watching for ${durationMs / 1000}s; each change is logged as it happens`)

  return watchUntil(
    deps.cluster,
    scope,
    {
      endsAt: deps.now() + durationMs,
      atEnd: undefined,
      endName: 'the end of the watch',
      now: deps.now,
      log: deps.log
    },
    () => ({
      onList(kind, namespace, listed) {
        const seen = new Set(listed.map((r) => routeKey(routeRef(r))))
        for (const [key, route] of [...routes]) {
          const inList =
            route.kind === kind && (namespace === null || route.metadata.namespace === namespace)
          if (inList && !seen.has(key)) drop(key)
        }
        listed.forEach(judge)
      },
      onChange(type, route) {
        if (type === 'DELETED') drop(routeKey(routeRef(route)))
        else judge(route)
      }
    })
  ).then(() => [...routes.values()])
}

const CHANGE_WORD: Record<ReturnType<typeof changeOf>, string> = {
  degraded: 'DEGRADED',
  recovered: 'recovered',
  added: 'new',
  removed: 'deleted',
  changed: 'changed'
}

async function explainAll(
  routes: RouteObject[],
  cluster: ClusterClient,
  options: VerdictOptions,
  owners: World,
  now: number
): Promise<{ results: RouteResult[]; notes: string[] }> {
  const notReady = routes.filter((r) => evaluateRoute(r, owners, options).verdict !== 'ready')
  const world = notReady.length === 0 ? owners : await cluster.readWorld(namespacesToRead(notReady))
  const notes = new Set<string>()
  const results = routes.map((route) => {
    const verdict = evaluateRoute(route, world, options)
    verdict.notes.forEach((n) => notes.add(n))
    return explainRoute(verdict, world, { now: new Date(now), routes })
  })
  world.unreadable.forEach((u) => notes.add(`Could not read ${u}`))
  return { results: await proveLive(results, cluster, options.conditions), notes: [...notes] }
}

function stateOf(verdict: RouteVerdict): RouteState {
  return { ...routeRef(verdict.route), verdict: verdict.verdict }
}

/** " (NotAllowedByListeners, BackendNotFound)": why a Route is not ready, for a log line. */
function reasonsText(verdict: RouteVerdict): string {
  if (verdict.verdict === 'ready') return ''
  const reasons = new Set(
    [...verdict.findings, ...verdict.parents.flatMap((p) => p.findings)].map((f) =>
      f.condition === undefined ? f.reason : `${f.condition}=${f.reason}`
    )
  )
  return reasons.size === 0 ? '' : ` (${[...reasons].join(', ')})`
}

function monitorSummaryLine(report: Report): string {
  const { routes, ready, failed, pending } = report.counts
  const transitions = report.transitions ?? []
  const degraded = transitions.filter(isDegradation).length
  return `Verdict: ${report.verdict}: ${ready} of ${routes} Routes ready, ${failed} failed, ${pending} pending; ${transitions.length} changes, ${degraded} degraded`
}

/** The exit code of a monitor run: `fail-on` decides what fails it. */
export function monitorExitCode(report: Report, failOn: FailOn): 0 | 1 {
  if (failOn === 'never') return 0
  if (failOn === 'any') return report.verdict === 'ready' ? 0 : 1
  return (report.transitions ?? []).some(isDegradation) ? 1 : 0
}

/** Why a monitor run failed, in one line. */
export function monitorFailureMessage(report: Report, failOn: FailOn): string {
  const degraded = (report.transitions ?? []).filter(isDegradation).map(routeId)
  if (failOn === 'degraded' || degraded.length > 0) {
    const shown = degraded.slice(0, 5).join(', ')
    const more = degraded.length > 5 ? ` and ${degraded.length - 5} more` : ''
    return `${degraded.length} Route${degraded.length === 1 ? '' : 's'} degraded: ${shown}${more}`
  }
  const { routes, ready } = report.counts
  return `${routes - ready} of ${routes} Routes not ready`
}

const STATE_VERSION = 1

/** A state file (`--state-out`): the Routes' verdicts, which `--previous` reads back. */
export function stateFile(report: Report): string {
  const routes = report.routes.map(({ kind, namespace, name, verdict }) => ({
    kind,
    namespace,
    name,
    verdict
  }))
  return JSON.stringify({ stateVersion: STATE_VERSION, routes }, null, 2) + '\n'
}

export async function writeStateFile(file: string, cwd: string, report: Report): Promise<void> {
  await writeUserFile(file, stateFile(report), 'state-out', cwd)
}

/** Reads `--previous`: a former report or a state file (both hold routes[] with verdicts). */
export async function readPreviousState(file: string, cwd: string): Promise<RouteState[]> {
  const label = `Invalid previous "${file}"`
  const text = (await readUserFile(path.resolve(cwd, file), label)).toString('utf8')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new InputError(`Invalid previous "${file}": not JSON (expected a route-gate report)`)
  }
  const states = parseRouteStates(value)
  if (states === undefined) {
    throw new InputError(
      `Invalid previous "${file}": not a route-gate report or state file (routes[] with kind, namespace, name and verdict)`
    )
  }
  return states
}
