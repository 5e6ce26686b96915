// The wait's one line: Routes ready of all, the parents that are not and why, the time left; said
// again on every interval, and on a change only when it says something new.
import { describe, expect, it } from 'vitest'
import { normalizeParentRef } from '../../../src/model/parent-ref.ts'
import type { ParentVerdict, RouteObject, RouteVerdict, Verdict } from '../../../src/model/types.ts'
import { Heartbeat } from '../../../src/report/heartbeat.ts'

function route(
  name: string,
  parents: [string, Verdict, string?][],
  findings: string[] = []
): RouteVerdict {
  const object = {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name, namespace: 'shop', generation: 2 },
    spec: {}
  } as RouteObject
  const judged: ParentVerdict[] = parents.map(([gateway, verdict, reason]) => ({
    parentRef: normalizeParentRef({ name: gateway, namespace: 'infra' }, 'shop'),
    verdict,
    controllerName: null,
    conditions: [],
    findings:
      reason === undefined
        ? []
        : [{ reason, severity: verdict === 'failed' ? 'error' : 'warning' }],
    otherControllers: []
  }))
  const worst = [...parents.map((p) => p[1]), ...(findings.length > 0 ? ['failed' as const] : [])]
  const verdict: Verdict = worst.includes('failed')
    ? 'failed'
    : worst.includes('pending')
      ? 'pending'
      : 'ready'
  return {
    route: object,
    verdict,
    parents: judged,
    findings: findings.map((reason) => ({ reason, severity: 'error' })),
    orphans: [],
    notes: []
  }
}

/** A Heartbeat that has observed `verdicts`, each under its Route's name. */
function observed(verdicts: RouteVerdict[], heartbeat = new Heartbeat(300_000)): Heartbeat {
  for (const v of verdicts) heartbeat.observe(v.route.metadata.name, v)
  return heartbeat
}

describe('Heartbeat', () => {
  const deadline = 300_000

  it('says how many Routes are ready, which parents wait and why, and the time left', () => {
    const line = observed([
      route('ready', [['edge', 'ready']]),
      route('new', [['edge', 'pending', 'NoStatus']]),
      route('old', [
        ['edge', 'pending', 'StaleStatus'],
        ['other', 'pending', 'ConditionUnknown']
      ]),
      route('broken', [['edge', 'failed', 'BackendNotFound']]),
      route('orphan', [], ['NoParentRefs'])
    ]).line(6, 48_000, true)
    expect(line).toBe(
      '1 of 6 Routes ready; 1 not found yet; waiting on HTTPRoute shop/new → infra/edge (no status yet), HTTPRoute shop/old → infra/edge (status of an older generation), HTTPRoute shop/old → infra/other (condition Unknown), HTTPRoute shop/broken → infra/edge (failed: BackendNotFound), HTTPRoute shop/orphan (NoParentRefs); 4m 12s left'
    )
  })

  it('names at most five parents and counts the rest', () => {
    const many = Array.from({ length: 8 }, (_, i) =>
      route(`r${i}`, [['edge', 'pending', 'NoStatus']])
    )
    const line = observed(many).line(undefined, 0, true)
    expect(line).toMatch(
      /^0 of 8 Routes ready; waiting on (HTTPRoute shop\/r\d → infra\/edge \(no status yet\)(, )?){5} and 3 more; 5m 0s left$/
    )
  })

  it('on a change, says only what is new; on the interval, always', () => {
    const heartbeat = observed([route('web', [['edge', 'pending', 'NoStatus']])])
    expect(heartbeat.line(1, 0, false)).toBe(
      '0 of 1 Route ready; waiting on HTTPRoute shop/web → infra/edge (no status yet); 5m 0s left'
    )
    expect(heartbeat.line(1, 10_000, false)).toBeUndefined()
    expect(heartbeat.line(1, 30_000, true)).toMatch(/; 4m 30s left$/)
    observed([route('web', [['edge', 'ready']])], heartbeat)
    expect(heartbeat.line(1, 31_000, false)).toBe('1 of 1 Route ready; 4m 29s left')
  })

  it('lets no cluster text start a workflow command or break the line', () => {
    const hostile = route('web', [['edge', 'pending', 'X\n::error::pwned']])
    hostile.route.metadata.name = '::warning::x\nsecond'
    const line = observed([hostile]).line(1, 0, true) ?? ''
    expect(line.split('\n')).toHaveLength(1)
    expect(line).not.toMatch(/^::|\s::(error|warning)::/)
  })

  it('names the Routes judged longest ago first, and drops one forgotten', () => {
    const heartbeat = observed([
      route('a', [['edge', 'pending', 'NoStatus']]),
      route('b', [['edge', 'failed', 'BackendNotFound']])
    ])
    observed([route('a', [['edge', 'pending', 'StaleStatus']])], heartbeat)
    expect(heartbeat.line(undefined, 0, true)).toMatch(
      /^0 of 2 Routes ready; waiting on HTTPRoute shop\/b .*, HTTPRoute shop\/a .*older generation\)/
    )
    heartbeat.forget('b')
    heartbeat.forget('never-seen')
    expect(heartbeat.line(undefined, 0, true)).toMatch(
      /^0 of 1 Route ready; waiting on HTTPRoute shop\/a /
    )
  })

  it('reads only the changed Route on an event, however many Routes wait', () => {
    let reads = 0
    const counted = (v: RouteVerdict): RouteVerdict =>
      new Proxy(v, {
        get(target, key, receiver) {
          reads++
          return Reflect.get(target, key, receiver) as unknown
        }
      })
    const perEvent = (size: number): number => {
      const heartbeat = new Heartbeat(deadline)
      for (let i = 0; i < size; i++) {
        heartbeat.observe(`r${i}`, counted(route(`r${i}`, [['edge', 'pending', 'NoStatus']])))
      }
      reads = 0
      for (let i = 0; i < 100; i++) {
        heartbeat.observe(`r${i}`, counted(route(`r${i}`, [['edge', 'ready']])))
        heartbeat.line(undefined, i, false)
      }
      return reads / 100
    }
    expect(perEvent(5000)).toBe(perEvent(50))
  })
})
