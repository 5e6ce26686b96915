// What a wait says while it waits, and fail-fast for a parent Gateway that does not exist, on the
// real API server through the committed Action bundle. Routes attach to Gateways of the class no
// controller owns, so their status is exactly what the test writes, when it writes it.
import { afterAll, describe, expect, it } from 'vitest'
import {
  applyYaml,
  clusterEnv,
  createService,
  testHostname,
  testNamespace,
  writeRouteStatus
} from '../helpers/cluster.ts'
import { gate, logOf, reportOf } from '../helpers/gate.ts'
import { httpRouteYaml } from '../helpers/manifest-files.ts'

const timers: NodeJS.Timeout[] = []
afterAll(() => timers.forEach(clearTimeout))

async function routeOn(ns: string, gateway: { namespace: string; name: string }): Promise<void> {
  await createService(ns, 'web', [{ port: 8080 }])
  await applyYaml(
    httpRouteYaml({ name: 'web', gateway, hostname: testHostname(ns), backend: 'web' }),
    ns
  )
}

function markReady(ns: string, gateway: { namespace: string; name: string }) {
  return writeRouteStatus(
    'HTTPRoute',
    ns,
    'web',
    {
      parents: [
        {
          parentRef: { group: 'gateway.networking.k8s.io', kind: 'Gateway', ...gateway },
          conditions: [
            { type: 'Accepted', status: 'True', reason: 'Accepted', observedGeneration: 1 },
            { type: 'ResolvedRefs', status: 'True', reason: 'ResolvedRefs', observedGeneration: 1 }
          ]
        }
      ]
    },
    { controllerName: clusterEnv().otherGateway.controllerName }
  )
}

describe('while the gate waits', () => {
  it('logs N of M ready, the parent that waits and why, and the time left, on every beat and on a change', async () => {
    const ns = await testNamespace('beat')
    const other = clusterEnv().otherGateway
    await routeOn(ns, other)
    const waiting = `0 of 1 Route ready; waiting on HTTPRoute ${ns}/web → ${other.namespace}/${other.name} (no status yet); `
    let marked: Promise<unknown> | undefined
    const result = await gate(
      { routes: `httproute/${ns}/web`, timeout: '60s', heartbeat: '1s' },
      undefined,
      (log) => {
        // three beats said, then the status comes: the change is said at once
        if (marked === undefined && log.split(waiting).length > 3) marked = markReady(ns, other)
      }
    )
    await marked
    expect(result.code, logOf(result)).toBe(0)
    const lines = logOf(result).split('\n')
    const beats = lines.filter((l) => l.startsWith(waiting))
    expect(beats.length).toBeGreaterThanOrEqual(3)
    for (const beat of beats) expect(beat).toMatch(/; \d+\.\ds left$/)
    const readyLine = lines.findIndex((l) => /^1 of 1 Route ready; \d+\.\ds left$/.test(l))
    expect(readyLine).toBeGreaterThan(lines.indexOf(beats.at(-1)!))
  })
})

describe('fail-fast and a parent Gateway that does not exist', () => {
  it('fails once the grace has passed, naming the missing Gateway', async () => {
    const ns = await testNamespace('nogw')
    await routeOn(ns, { namespace: ns, name: 'edge' })
    const result = await gate({ routes: `httproute/${ns}/web`, timeout: '5m', 'fail-fast': 'true' })
    expect(result.code, logOf(result)).toBe(1)
    expect(logOf(result)).toContain(
      `fail-fast: Gateway ${ns}/edge (parent of HTTPRoute ${ns}/web) does not exist`
    )
    const report = await reportOf(result)
    expect(report.timedOut).not.toBe(true)
    expect(report.routes[0]?.parents[0]).toMatchObject({
      verdict: 'failed',
      problems: [expect.objectContaining({ reason: 'NoStatus', severity: 'error' })]
    })
    expect(JSON.stringify(report.routes[0]?.parents[0]?.problems)).toMatch(/edge/)
  })

  it('does not fail a Route whose Gateway lands within the grace', async () => {
    const ns = await testNamespace('lategw')
    const gateway = { namespace: ns, name: 'edge' }
    await routeOn(ns, gateway)
    timers.push(
      setTimeout(() => {
        void applyYaml(gatewayYaml('edge'), ns)
      }, 3000)
    )
    let marked: Promise<unknown> | undefined
    const result = await gate(
      { routes: `httproute/${ns}/web`, timeout: '60s', 'fail-fast': 'true', heartbeat: '1s' },
      undefined,
      (log) => {
        // well after the grace: only a Gateway that exists keeps the wait going this long
        if (marked === undefined && log.split('0 of 1 Route ready').length > 14) {
          marked = markReady(ns, gateway)
        }
      }
    )
    await marked
    expect(result.code, logOf(result)).toBe(0)
    expect(logOf(result)).not.toContain('does not exist')
  })

  it("counts the grace from when the gate first sees the Route, not from the wait's start", async () => {
    const ns = await testNamespace('lateroute')
    const gateway = { namespace: ns, name: 'edge' }
    await createService(ns, 'web', [{ port: 8080 }])
    const waiting = `waiting on HTTPRoute ${ns}/web → ${ns}/edge (no status yet)`
    const steps: Promise<unknown>[] = []
    let step = 0
    const result = await gate(
      { routes: `httproute/${ns}/web`, timeout: '90s', 'fail-fast': 'true', heartbeat: '1s' },
      undefined,
      (log) => {
        const beats = (text: string): number => log.split(text).length - 1
        // 6 beats into the wait the Route arrives; 6 beats after the gate saw it, its Gateway: past
        // 10 s of the wait, within 10 s of the Route
        if (step === 0 && beats('1 not found yet') >= 6) {
          step = 1
          steps.push(
            applyYaml(
              httpRouteYaml({ name: 'web', gateway, hostname: testHostname(ns), backend: 'web' }),
              ns
            )
          )
        } else if (step === 1 && beats(waiting) >= 6) {
          step = 2
          steps.push(applyYaml(gatewayYaml('edge'), ns))
        } else if (step === 2 && beats(waiting) >= 20) {
          step = 3
          steps.push(markReady(ns, gateway))
        }
      }
    )
    await Promise.all(steps)
    expect(step, logOf(result)).toBe(3)
    expect(result.code, logOf(result)).toBe(0)
    expect(logOf(result)).not.toContain('does not exist')
  })
})

function gatewayYaml(name: string): string {
  return `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: ${name}
spec:
  gatewayClassName: ${clusterEnv().otherGateway.gatewayClass}
  listeners:
  - name: http
    port: 80
    protocol: HTTP
`
}
