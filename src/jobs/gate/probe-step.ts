// The gate's traffic step: once every status is ready, with verify-traffic, the second wait: the
// data plane serving. The status is listed again each round, so a parent that stops being ready
// while it is probed fails the probe.
import type { ClusterClient, RouteScope } from '../../cluster/types.ts'
import { evaluateRoute } from '../../model/evaluate.ts'
import { routeKey, routeRef } from '../../model/route-id.ts'
import type { VerdictOptions, World } from '../../model/types.ts'
import { probeKey } from '../../probe/rules/traffic-verdict.ts'
import { probeRoutes, type TrafficRun } from '../../probe/loop/probe-routes.ts'
import type { VerdictTally } from './collector.ts'
import { inTime, type GateRun } from './gate-run.ts'
import type { GateTargets } from './targets.ts'

export async function probeReadyRoutes(
  run: GateRun,
  targets: GateTargets,
  verdicts: VerdictTally,
  options: VerdictOptions,
  trafficCa: string | undefined
): Promise<TrafficRun> {
  const { settings, cluster } = run
  const readyWorld = await inTime(run, cluster.readWorld([]))
  return probeRoutes(
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
      deadline: run.deadline,
      now: run.now,
      log: run.log,
      readWorld: () => inTime(run, cluster.readWorld([])),
      listHttpRoutes: () =>
        inTime(run, cluster.listRoutes({ kinds: ['HTTPRoute'], namespaces: 'all' })),
      degraded: () => degradedParents(cluster, targets.scope, verdicts, readyWorld, options),
      send: run.send
    }
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
