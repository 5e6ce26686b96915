// Gate mode, as named steps: settings, connect, apply (dry-run first), locate, watch and collect,
// judge, diagnose, probe, report. The verdict comes from the model alone; these steps decide what to
// read and when to stop looking. The outputs (Action outputs, summary, annotations, the CLI's stdout)
// are the caller's.
import { ClusterError, InputError } from '../../runtime/errors.ts'
import type { Settings } from '../../inputs/settings.ts'
import { buildReport } from '../../model/report.ts'
import { routeKey } from '../../model/route-id.ts'
import type { Report, RouteResult, VerdictOptions, World } from '../../model/types.ts'
import { applyProbes } from '../../probe/rules/traffic-verdict.ts'
import type { ProbeOutcome } from '../../probe/rules/answer-meaning.ts'
import type { TrafficRun } from '../../probe/loop/probe-routes.ts'
import { TOOL_VERSION } from '../../runtime/version.ts'
import { scopeText, watchUntil } from '../watch-until.ts'
import { CarryWatch } from './carry-step.ts'
import { WaitCollector } from './collector.ts'
import { judgeAndDiagnose } from './diagnosis-step.ts'
import { ConfirmedFailure, watchForMissingParents } from './fail-fast.ts'
import { inTime, startGate, type GateDeps, type GateRun } from './gate-run.ts'
import { probeReadyRoutes } from './probe-step.ts'
import { applyAndLocate, connectToCluster, readGateInputs, type GateTargets } from './targets.ts'

export type { GateDeps } from './gate-run.ts'
export { MISSING_PARENT_GRACE_MS } from './fail-fast.ts'

type Outcome = 'ready' | 'fail-fast' | 'missing-parent' | 'deadline'

export async function runGate(settings: Settings, deps: GateDeps): Promise<Report> {
  const run = startGate(settings, deps)
  const inputs = await readGateInputs(run)
  const view = await connectToCluster(run)
  const targets = await applyAndLocate(run, inputs.docs, view)
  if ('dryRun' in targets) return targets.dryRun
  // check compares its files with the cluster; apply wrote them itself
  const carry = new CarryWatch(
    run,
    settings.applyManifests ? [] : inputs.docs,
    view.defaultNamespace
  )
  const wait = await watchAndCollect(run, targets, carry)
  const diagnosed = await judgeAndDiagnose(run, targets, wait.collector, {
    world: wait.world,
    allReady: wait.outcome === 'ready',
    // a parent whose Gateway does not exist will get no status: it is failed now, as at the deadline
    final: wait.outcome === 'deadline' || wait.outcome === 'missing-parent',
    options: wait.options
  })
  // With verify-traffic, the status being ready starts the second wait: the data plane serving.
  const traffic =
    settings.verifyTraffic && wait.outcome === 'ready'
      ? await probeReadyRoutes(
          run,
          targets,
          wait.collector.verdicts,
          wait.options,
          inputs.trafficCa
        )
      : undefined
  return gateReport(run, wait, diagnosed, traffic)
}

interface Wait {
  outcome: Outcome
  collector: WaitCollector
  /** the cluster as read when the wait began */
  world: World
  options: VerdictOptions
  /** gateways or gatewayclasses could not be listed: every entry carrying Accepted was judged */
  ownersUnknown: string[]
}

/** Lists and watches the Routes until all are ready, fail-fast stops, or the deadline passes. */
async function watchAndCollect(
  run: GateRun,
  targets: GateTargets,
  carry: CarryWatch
): Promise<Wait> {
  const { settings, cluster } = run
  const options: VerdictOptions = {
    conditions: settings.conditions,
    strict: settings.strict,
    final: false
  }
  const world = await inTime(run, cluster.readWorld([]))
  const collector = new WaitCollector(run, targets, world, options, carry)
  await inTime(
    run,
    carry.start(() => collector.rejudge())
  )
  const confirmed = new ConfirmedFailure(cluster, collector.verdicts, run.log)
  const beating = setInterval(() => collector.beat(true), settings.heartbeatMs)
  let missing: { end: () => void } | undefined
  const outcome = await watchUntil<Outcome>(
    cluster,
    targets.scope,
    {
      endsAt: run.deadline,
      atEnd: 'deadline',
      endName: 'the deadline',
      now: run.now,
      log: run.log
    },
    (stop) => {
      if (settings.failFast)
        missing = watchForMissingParents(run, collector, () => stop('missing-parent'))
      return collector.handlers((state) => {
        if (state === 'ready') {
          stop('ready')
          return
        }
        loadTimeZone()
        if (state === 'failed' && settings.failFast) confirmed.check(() => stop('fail-fast'))
      })
    }
  ).finally(() => {
    clearInterval(beating)
    carry.end()
    missing?.end()
  })
  // A list that never answered leaves its Routes unknown, not absent: "does not exist" would be false.
  const unlisted = collector.unlistedNames()
  if (outcome === 'deadline' && unlisted.length > 0) {
    throw new ClusterError(
      `${cluster.description}: ${unlisted.join(', ')} not listed before the deadline`
    )
  }
  if (!targets.byName && collector.routes.size === 0) {
    throw new InputError(
      `No ${targets.scope.kinds.join('/')} found in ${scopeText(targets.scope)} before the deadline`
    )
  }
  const ownersUnknown = world.unreadable.filter((u) => /^(gateways|gatewayclasses)\b/.test(u))
  return { outcome, collector, world, options, ownersUnknown }
}

/**
 * The report's first Date#toISOString makes V8 look up the host's time zone and load ICU's zone data
 * (2-3 ms on a CI runner, page faults included). Called whenever the gate goes on waiting, while it
 * is idle (after the first call it costs nothing), so that the report after the last event does not
 * pay it.
 */
function loadTimeZone(): void {
  new Date(0).toISOString()
}

function gateReport(
  run: GateRun,
  wait: Wait,
  diagnosed: { results: RouteResult[]; notes: string[]; world: World },
  traffic: TrafficRun | undefined
): Report {
  const notes = new Set(diagnosed.notes)
  traffic?.notes.forEach((n) => notes.add(n))
  const probed = run.settings.verifyTraffic
    ? applyProbes(diagnosed.results, traffic?.outcomes ?? new Map<string, ProbeOutcome>())
    : diagnosed.results
  // a time to ready only for what ends ready (verify-traffic may have failed a ready status)
  const judged = probed.map((result) => {
    const readyAt =
      result.verdict === 'ready' ? wait.collector.readyTimes.of(routeKey(result)) : undefined
    return readyAt === undefined ? result : { ...result, readyAt }
  })
  diagnosed.world.unreadable.forEach((u) => notes.add(`Could not read ${u}`))
  wait.collector.carry.notes().forEach((n) => notes.add(n))
  if (wait.ownersUnknown.length > 0) {
    notes.add(
      `Owner filtering was off while waiting (could not read ${wait.ownersUnknown.join('; ')}): status entries that carry Accepted were judged, whichever controller wrote them. Grant list on gateways and gatewayclasses cluster-wide to judge only the Gateway's own controller.`
    )
  }
  const report = buildReport({
    mode: 'gate',
    routes: judged,
    toolVersion: TOOL_VERSION,
    startedAt: new Date(run.started),
    finishedAt: new Date(run.now()),
    timedOut: wait.outcome === 'deadline' || traffic?.timedOut === true,
    notes: [...notes]
  })
  run.log(summaryLine(report, wait.outcome))
  return report
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
