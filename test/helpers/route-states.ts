// Routes whose status only tests write (attached to the `other` Gateway, whose class no running
// controller owns), the four states a soak or fault test flips them between, and the gate run
// in-process on the real cluster client (src/cluster/connect.ts) with short, test-sized tuning.
import { parseSettings } from '../../src/inputs/parse.ts'
import { connect } from '../../src/cluster/connect.ts'
import type { ClusterTuning } from '../../src/cluster/session.ts'
import type { Report } from '../../src/model/types.ts'
import { run } from '../../src/jobs/run.ts'
import {
  applyYaml,
  clusterEnv,
  gatewayParentRef,
  writeRouteStatus,
  type RouteRead,
  type RouteStatus
} from './cluster.ts'
import { REPO } from './action.ts'
import { httpRouteYaml } from './manifest-files.ts'

export type RouteState = 'ready' | 'failed' | 'stale' | 'missing'
export const ROUTE_STATES: RouteState[] = ['ready', 'failed', 'stale', 'missing']

/** The reason the gate must give at the deadline for a Route left in each non-ready state. */
export const EXPECTED_REASON: Record<Exclude<RouteState, 'ready'>, string> = {
  failed: 'BackendNotFound',
  stale: 'StaleStatus',
  missing: 'NoStatus'
}

function routeYaml(name: string, hostname: string): string {
  return httpRouteYaml({ name, gateway: clusterEnv().otherGateway, hostname, backend: 'backend' })
}

/**
 * An HTTPRoute on the `other` Gateway at generation 2 (applied, then its hostname changed), so that
 * status at generation 1 is stale. Returns its generation.
 */
export async function createOtherRoute(namespace: string, name: string): Promise<number> {
  await applyYaml(routeYaml(name, `first.${name}.${namespace}.example.com`), namespace)
  const [route] = await applyYaml(
    routeYaml(name, `second.${name}.${namespace}.example.com`),
    namespace
  )
  return (route as RouteRead).metadata.generation
}

export function statusFor(state: RouteState, generation: number): RouteStatus {
  if (state === 'missing') return { parents: [] }
  const observedGeneration = state === 'stale' ? generation - 1 : generation
  const resolved =
    state === 'failed'
      ? {
          type: 'ResolvedRefs',
          status: 'False' as const,
          reason: 'BackendNotFound',
          message: 'service "backend" not found'
        }
      : { type: 'ResolvedRefs', status: 'True' as const, reason: 'ResolvedRefs' }
  return {
    parents: [
      {
        parentRef: gatewayParentRef('other'),
        conditions: [
          { type: 'Accepted', status: 'True', reason: 'Accepted', observedGeneration },
          { ...resolved, observedGeneration }
        ]
      }
    ]
  }
}

/** Resolves with the Route as the API server acknowledged the write (its resourceVersion). */
export async function writeState(
  namespace: string,
  name: string,
  state: RouteState,
  generation: number
): Promise<RouteRead> {
  return await writeRouteStatus('HTTPRoute', namespace, name, statusFor(state, generation), {
    controllerName: clusterEnv().otherGateway.controllerName
  })
}

/** Short enough that silence and backoff show within seconds, bounded like the defaults. */
export const FAST_TUNING: ClusterTuning = {
  requestTimeoutMs: 2500,
  watchTimeoutSeconds: 1,
  retry: { retries: 30, minTimeoutMs: 100, maxTimeoutMs: 500, maxRetryTimeMs: 30_000 }
}

export interface InProcessRun {
  report?: Report
  error?: Error
  log: string[]
  startedAt: number
  endedAt: number
}

/** One gate run through run() with the real cluster client, its log lines kept. */
export async function gateInProcess(
  inputs: Record<string, string>,
  kubeconfig: string,
  tuning: Partial<ClusterTuning> = FAST_TUNING
): Promise<InProcessRun> {
  const log: string[] = []
  const startedAt = Date.now()
  try {
    const settings = parseSettings((name) => inputs[name], 'gate')
    const report = await run(settings, {
      connect: (s) => connect({ kubeconfig, context: s.context, env: {}, mask: () => {}, tuning }),
      log: (line) => log.push(line),
      cwd: REPO,
      now: Date.now
    })
    return { report: report as Report, log, startedAt, endedAt: Date.now() }
  } catch (error) {
    return { error: error as Error, log, startedAt, endedAt: Date.now() }
  }
}
