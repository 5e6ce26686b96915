// The gate's traffic step: plans requests for every ready parent of every Route and sends them until
// each parent serves or the deadline passes.
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { StatusRange } from './answer.ts'
import { probeKey } from './apply.ts'
import { sendProbe, type Send } from './http.ts'
import { planParent } from './plan.ts'
import { verifyTraffic, type ProbeOutcome, type ProbeTarget } from './verify.ts'
import { formatParentRef } from '../model/parent-ref.ts'
import { routeId, routeRef } from '../model/route-id.ts'
import type { RouteVerdict, World } from '../model/types.ts'

export interface TrafficSettings {
  gatewayAddress?: string
  expectStatus?: StatusRange[]
  /** PEM */
  ca?: string
  skipTlsVerify: boolean
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
  send?: Send
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
  let targets = planAll(verdicts, world, settings, token)
  // An address is often the last thing a controller writes (a load balancer being provisioned).
  let said = false
  while (
    targets.some((t) => 'cause' in t.plan && t.plan.cause === 'no-address') &&
    deps.now() + ADDRESS_POLL_MS < deps.deadline
  ) {
    if (!said) deps.log('Waiting for an address in the status of the parent Gateways')
    said = true
    await sleep(ADDRESS_POLL_MS)
    targets = planAll(verdicts, await deps.readWorld(), settings, token)
  }
  const notes = targets.flatMap((t) =>
    'skipped' in t.plan && t.plan.skipped.length > 0
      ? [`${t.route}: traffic not verified for ${t.plan.skipped.join('; ')}`]
      : []
  )
  const probed = targets.filter((t) => 'targets' in t.plan).length
  if (probed > 0) deps.log(`Verifying traffic through ${probed} parent${probed === 1 ? '' : 's'}`)
  const outcomes = await verifyTraffic(targets, {
    deadline: deps.deadline,
    now: deps.now,
    log: deps.log,
    send: deps.send ?? sendProbe,
    sleep: (ms) => sleep(ms),
    skipTlsVerify: settings.skipTlsVerify,
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

function planAll(
  verdicts: RouteVerdict[],
  world: World,
  settings: TrafficSettings,
  token: string
): (ProbeTarget & { route: string })[] {
  return verdicts.flatMap((verdict) => {
    const ref = routeRef(verdict.route)
    return verdict.parents
      .filter((parent) => parent.verdict === 'ready')
      .map((parent) => ({
        key: probeKey(ref, parent.parentRef),
        route: routeId(ref),
        label: `${routeId(ref)} → ${formatParentRef(parent.parentRef, ref.namespace)}`,
        plan: planParent(verdict.route, parent.parentRef, world, {
          token,
          ...(settings.gatewayAddress !== undefined && { gatewayAddress: settings.gatewayAddress })
        })
      }))
  })
}
