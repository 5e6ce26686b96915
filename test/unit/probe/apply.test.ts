// The verdict with verify-traffic: ready only when the status is ready and the probe serves.
import { describe, expect, it } from 'vitest'
import type { ParentResult, RouteResult } from '../../../src/model/types.ts'
import { applyProbes, probeKey } from '../../../src/probe/rules/traffic-verdict.ts'
import { notProbedOutcome } from '../../../src/probe/rules/answer-meaning.ts'
import type { ProbeOutcome } from '../../../src/probe/rules/answer-meaning.ts'

const ref = {
  group: 'gateway.networking.k8s.io',
  kind: 'Gateway',
  namespace: 'infra',
  name: 'edge'
}
const parent = (verdict: ParentResult['verdict']): ParentResult => ({
  parentRef: ref,
  verdict,
  problems: []
})
const route = (
  kind: RouteResult['kind'],
  verdict: ParentResult['verdict'] = 'ready'
): RouteResult => ({
  kind,
  namespace: 'shop',
  name: 'web',
  verdict,
  parents: [parent(verdict)]
})
const outcome = (o: ProbeOutcome) => (r: RouteResult) => new Map([[probeKey(r, ref), o]])

describe('applyProbes', () => {
  it('keeps a ready parent ready when it serves', () => {
    const r = route('HTTPRoute')
    const [judged] = applyProbes([r], outcome({ result: { state: 'serving' } })(r))
    expect(judged).toMatchObject({
      verdict: 'ready',
      parents: [{ verdict: 'ready', probe: { state: 'serving' } }]
    })
  })

  it('fails a ready parent that does not serve, with the probe’s problem', () => {
    const r = route('HTTPRoute')
    const problem = {
      reason: 'NotServing',
      severity: 'error' as const,
      title: 't',
      remediation: 'r'
    }
    const [judged] = applyProbes([r], outcome({ result: { state: 'not-serving' }, problem })(r))
    expect(judged).toMatchObject({
      verdict: 'failed',
      parents: [{ verdict: 'failed', problems: [problem] }]
    })
  })

  it('fails a ready HTTPRoute parent never probed because the run ended first', () => {
    const [judged] = applyProbes([route('HTTPRoute')], new Map())
    expect(judged?.verdict).toBe('failed')
    expect(judged?.parents[0]?.probe?.why).toMatch(/run ended before that/)
    expect(judged?.parents[0]?.problems[0]?.remediation).toMatch(/longer timeout/)
  })

  it('fails a ready parent that could not be probed, saying what to do', () => {
    const r = route('HTTPRoute')
    const [judged] = applyProbes(
      [r],
      outcome(
        notProbedOutcome({ notProbed: 'Gateway infra/edge has no address', cause: 'no-address' })
      )(r)
    )
    expect(judged?.verdict).toBe('failed')
    expect(judged?.parents[0]?.problems[0]?.remediation).toMatch(/with gateway-address/)
  })

  it('leaves parents that are not ready by status as they are', () => {
    const r = route('HTTPRoute', 'pending')
    expect(applyProbes([r], new Map())).toEqual([r])
  })

  it('keeps the status verdict of a kind it cannot probe, with a warning', () => {
    const r = route('TCPRoute')
    const [judged] = applyProbes(
      [r],
      outcome(
        notProbedOutcome({ notProbed: 'TCPRoute traffic is not probed yet', cause: 'unsupported' })
      )(r)
    )
    expect(judged?.verdict).toBe('ready')
    expect(judged?.parents[0]?.problems[0]).toMatchObject({
      reason: 'NotProbed',
      severity: 'warning'
    })
  })
})
