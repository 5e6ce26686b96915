// The one path every entry point takes from settings to a report: snapshot when there is a dump,
// otherwise a cluster connection and the gate; or the monitor, on a dump or a cluster. The gate (and
// with it the traffic probes: http, https, tls, dns) is imported only when a cluster is judged, so a
// snapshot loads nothing but pure code.
import type { ClusterClient } from '../cluster/types.ts'
import type { Settings } from '../inputs/settings.ts'
import type { RouteState } from '../model/transitions.ts'
import type { Report, ReportVerdict } from '../model/types.ts'
import {
  monitorExitCode,
  readPreviousState,
  runMonitor,
  runMonitorSnapshot,
  writeStateFile
} from './monitor.ts'
import { exitCodeFor } from './outcome.ts'
import { runPredict } from './predict.ts'
import { runSnapshot } from './snapshot.ts'

export interface RunDeps {
  connect: (settings: Settings) => Promise<ClusterClient>
  log: (line: string) => void
  cwd: string
  now: () => number
  /** monitor: the previous state when the caller keeps it (the Action's tracking issue) */
  previous?: RouteState[]
}

export async function run(settings: Settings, deps: RunDeps): Promise<Report<ReportVerdict>> {
  if (settings.command === 'predict') return runPredict(settings, deps)
  if (settings.command === 'monitor') {
    const report = await monitor(settings, deps)
    if (settings.stateOut !== undefined) await writeStateFile(settings.stateOut, deps.cwd, report)
    return report
  }
  if (settings.fromFile !== undefined) {
    return runSnapshot(settings, deps.cwd)
  }
  const [cluster, { runGate }] = await Promise.all([
    deps.connect(settings),
    import('./gate/gate.ts')
  ])
  try {
    return await runGate(settings, { cluster, log: deps.log, cwd: deps.cwd, now: deps.now })
  } finally {
    closeAfterReport(cluster)
  }
}

/**
 * Closing ends every request and stream, which takes a few ms: done once the caller has printed the
 * report (a CLI exits before it, which ends them all the same).
 */
function closeAfterReport(cluster: ClusterClient): void {
  setImmediate(() => cluster.close())
}

/** The process's exit code for a finished run: the gate's verdict, or the monitor's fail-on. */
export function runExitCode(report: Report<ReportVerdict>, settings: Settings): 0 | 1 {
  return settings.command === 'monitor'
    ? monitorExitCode(report as Report, settings.failOn)
    : exitCodeFor(report, settings)
}

async function monitor(settings: Settings, deps: RunDeps): Promise<Report> {
  const previous =
    deps.previous ??
    (settings.previous === undefined
      ? undefined
      : await readPreviousState(settings.previous, deps.cwd))
  if (settings.fromFile !== undefined) {
    return runMonitorSnapshot(settings, deps.cwd, previous)
  }
  const cluster = await deps.connect(settings)
  try {
    return await runMonitor(settings, { cluster, log: deps.log, now: deps.now, previous })
  } finally {
    closeAfterReport(cluster)
  }
}
