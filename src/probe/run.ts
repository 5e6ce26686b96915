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

export async function probeRoutes(
  verdicts: RouteVerdict[],
  world: World,
  settings: TrafficSettings,
  deps: { deadline: number; now: () => number; log: (line: string) => void; send?: Send }
): Promise<TrafficRun> {
  const token = randomBytes(6).toString('hex')
  const notes: string[] = []
  const targets: ProbeTarget[] = []
  for (const verdict of verdicts) {
    const ref = routeRef(verdict.route)
    for (const parent of verdict.parents) {
      if (parent.verdict !== 'ready') continue
      const plan = planParent(verdict.route, parent.parentRef, world, {
        token,
        ...(settings.gatewayAddress !== undefined && { gatewayAddress: settings.gatewayAddress })
      })
      if ('skipped' in plan && plan.skipped.length > 0) {
        notes.push(`${routeId(ref)}: traffic not verified for ${plan.skipped.join('; ')}`)
      }
      targets.push({
        key: probeKey(ref, parent.parentRef),
        label: `${routeId(ref)} → ${formatParentRef(parent.parentRef, ref.namespace)}`,
        plan
      })
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
