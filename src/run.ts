// The one path every entry point takes from settings to a report: snapshot when there is a dump,
// otherwise a cluster connection and the gate.
import type { ClusterClient } from './cluster/types.ts'
import { runGate } from './gate.ts'
import type { Settings } from './inputs.ts'
import type { Report } from './model/types.ts'
import { runSnapshot } from './snapshot.ts'

export interface RunDeps {
  connect: (settings: Settings) => Promise<ClusterClient>
  log: (line: string) => void
  cwd: string
  now: () => number
}

export async function run(settings: Settings, deps: RunDeps): Promise<Report> {
  if (settings.fromFile !== undefined) {
    return runSnapshot(settings, deps.cwd, new Date(deps.now()))
  }
  const cluster = await deps.connect(settings)
  try {
    return await runGate(settings, { cluster, log: deps.log, cwd: deps.cwd, now: deps.now })
  } finally {
    cluster.close()
  }
}
