// The gate's traffic step: plans requests for every ready parent of every Route and sends them until
// each parent serves or the deadline passes.
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { StatusRange } from '../rules/answer.ts'
import { probeKey } from '../rules/traffic-verdict.ts'
import { sendProbe, type Send, type SendOptions } from '../transport/http.ts'
import { planParent, type ParentPlan } from '../rules/plan-requests.ts'
import { winningRoute } from '../rules/precedence.ts'
import type { GuardPolicy } from '../rules/target-guard.ts'
import type { ProbeOutcome } from '../rules/answer-meaning.ts'
import { verifyTraffic, type ProbeTarget } from './rounds.ts'
import { formatParentRef } from '../../model/parent-ref.ts'
import { routeId, routeRef } from '../../model/route-id.ts'
import type { ParentRef, RouteObject, RouteVerdict, World } from '../../model/types.ts'

export interface TrafficSettings {
  gatewayAddress?: string
  expectStatus?: StatusRange[]
  /** PEM */
  ca?: string
  skipTlsVerify: boolean
  policy: GuardPolicy
  showBody: boolean
  /** traffic-successes */
  successes: number
}

export interface TrafficRun {
  outcomes: Map<string, ProbeOutcome>
  /** rules no request was built for, per Route, for the report's notes */
  notes: string[]
  /** some parent still did not serve at the deadline */
  timedOut: boolean
}

export interface TrafficDeps {
  deadline: number
  now: () => number
  log: (line: string) => void
  /** reads the Gateways again, for one that has no address yet */
  readWorld: () => Promise<World>
  /** every HTTPRoute, to find those that take a probe's request by precedence */
  listHttpRoutes: () => Promise<RouteObject[]>
  send?: Send
  /** resolves a Gateway's Hostname address (default: the system resolver) */
  lookup?: SendOptions['lookup']
  /** the parents whose status is no longer ready, by probe key, with why */
  degraded?: () => Promise<Map<string, string>>
}

/** How often a Gateway without an address is read again. */
const ADDRESS_POLL_MS = 1000

export async function probeRoutes(
  verdicts: RouteVerdict[],
  world: World,
  settings: TrafficSettings,
  deps: TrafficDeps
): Promise<TrafficRun> {
  const token = randomBytes(6).toString('hex')
  const notes: string[] = []
  const others = await deps.listHttpRoutes().catch((error: unknown) => {
    notes.push(
      `Could not list HTTPRoutes in all namespaces (${error instanceof Error ? error.message : String(error)}): an answer from another Route that wins a probe's request by precedence would pass for this Route's. Grant list on httproutes cluster-wide.`
    )
    return []
  })
  const plan = (w: World): PlannedTarget[] => planAll(verdicts, w, settings, token, others)
  let targets = plan(world)
  // An address is often the last thing a controller writes (a load balancer being provisioned).
  let said = false
  while (
    targets.some((t) => 'cause' in t.plan && t.plan.cause === 'no-address') &&
    deps.now() + ADDRESS_POLL_MS < deps.deadline
  ) {
    if (!said) deps.log('Waiting for an address in the status of the parent Gateways')
    said = true
    await sleep(ADDRESS_POLL_MS)
    targets = plan(await deps.readWorld())
  }
  for (const t of targets) {
    if ('skipped' in t.plan && t.plan.skipped.length > 0) {
      notes.push(`${t.route}: traffic not verified for ${t.plan.skipped.join('; ')}`)
    }
  }
  const probed = targets.filter((t) => 'targets' in t.plan).length
  if (probed > 0) deps.log(`Verifying traffic through ${probed} parent${probed === 1 ? '' : 's'}`)
  const outcomes = await verifyTraffic(targets, {
    deadline: deps.deadline,
    now: deps.now,
    log: deps.log,
    send: deps.send ?? sendProbe,
    sleep: (ms) => sleep(ms),
    skipTlsVerify: settings.skipTlsVerify,
    policy: settings.policy,
    showBody: settings.showBody,
    successes: settings.successes,
    ...(deps.lookup !== undefined && { lookup: deps.lookup }),
    ...(deps.degraded !== undefined && { degraded: deps.degraded }),
    ...(settings.expectStatus !== undefined && { expect: settings.expectStatus }),
    ...(settings.ca !== undefined && { ca: settings.ca })
  })
  if (settings.skipTlsVerify) {
    notes.push(
      'TLS certificates were not verified while probing traffic (traffic-skip-tls-verify): a certificate that does not cover the hostname would not have been noticed.'
    )
  }
  const timedOut = [...outcomes.values()].some(
    (o) => o.result.state === 'not-serving' || o.result.state === 'unreachable'
  )
  return { outcomes, notes, timedOut }
}

type PlannedTarget = ProbeTarget & { route: string }

function planAll(
  verdicts: RouteVerdict[],
  world: World,
  settings: TrafficSettings,
  token: string,
  others: RouteObject[]
): PlannedTarget[] {
  return verdicts.flatMap((verdict) => {
    const ref = routeRef(verdict.route)
    return verdict.parents
      .filter((parent) => parent.verdict === 'ready')
      .map((parent) => {
        const plan = planParent(verdict.route, parent.parentRef, world, {
          token,
          policy: settings.policy,
          ...(settings.gatewayAddress !== undefined && { gatewayAddress: settings.gatewayAddress })
        })
        return {
          key: probeKey(ref, parent.parentRef),
          route: routeId(ref),
          label: `${routeId(ref)} → ${formatParentRef(parent.parentRef, ref.namespace)}`,
          plan: withPrecedence(plan, verdict.route, parent.parentRef, others)
        }
      })
  })
}

/** Marks each request that another Route takes by precedence. */
function withPrecedence(
  plan: ParentPlan,
  route: RouteObject,
  parent: ParentRef,
  others: RouteObject[]
): ParentPlan {
  if (!('targets' in plan)) return plan
  const targets = plan.targets.map((target) => ({
    ...target,
    requests: target.requests.map((request) => {
      const winner = winningRoute(request, route, parent, others)
      return winner ? { ...request, shadowedBy: winner.why } : request
    })
  }))
  return { ...plan, targets }
}
