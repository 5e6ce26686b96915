// What every step of the gate shares: the settings, the cluster, the log and one clock with its
// deadline. Built once when the gate starts; no step keeps state of its own here.
import type { ClusterClient } from '../../cluster/types.ts'
import { ClusterError } from '../../runtime/errors.ts'
import type { Settings } from '../../inputs/settings.ts'
import type { Send } from '../../probe/transport/http.ts'

export interface GateDeps {
  cluster: ClusterClient
  /** one line for the log; the caller makes it safe for the workflow log */
  log: (line: string) => void
  cwd: string
  now: () => number
  /** verify-traffic: how a probe request is sent (default: HTTP from this process) */
  send?: Send
}

export interface GateRun extends GateDeps {
  settings: Settings
  started: number
  deadline: number
}

export function startGate(settings: Settings, deps: GateDeps): GateRun {
  const started = deps.now()
  return { ...deps, settings, started, deadline: started + settings.timeoutMs }
}

/** `work`, unless the deadline passes first. */
export function inTime<T>(run: GateRun, work: Promise<T>): Promise<T> {
  return beforeDeadline(run, work, run.deadline)
}

/**
 * `work`, unless `at` passes first: retries must not hold the run past its deadline. The caller's
 * cluster.close() then ends the requests and retries still going on.
 */
export function beforeDeadline<T>(run: GateDeps, work: Promise<T>, at: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => {
        const fault = run.cluster.lastFault?.() ?? 'no answer'
        reject(
          new ClusterError(`${run.cluster.description}: ${fault} (still failing at the deadline)`)
        )
      },
      Math.max(0, at - run.now())
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
