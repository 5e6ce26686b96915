// A Route the gate was asked about that does not exist: a warning while the gate waits (a later step
// may create it), an error at the deadline, with the kubectl line that lists what does exist.
import { describe, expect, it } from 'vitest'
import { explainMissingRoute } from '../../../src/diagnose/missing.ts'

describe('explainMissingRoute', () => {
  const key = { kind: 'TLSRoute', namespace: 'edge', name: 'passthrough' } as const

  it('at the deadline: a failed Route with a RouteNotFound error and the command to list Routes', () => {
    const result = explainMissingRoute(key, true)
    expect(result).toMatchObject({
      kind: 'TLSRoute',
      namespace: 'edge',
      name: 'passthrough',
      verdict: 'failed',
      parents: []
    })
    expect(result.problems).toHaveLength(1)
    const problem = result.problems?.[0]
    expect(problem).toMatchObject({
      reason: 'RouteNotFound',
      standard: false,
      severity: 'error',
      title: 'TLSRoute edge/passthrough does not exist'
    })
    expect(problem?.remediation).toContain('(kubectl get tlsroute -n edge)')
    expect(problem?.remediation).toContain('run the gate after that step')
  })

  it('while waiting: pending, and only a warning', () => {
    const result = explainMissingRoute(key, false)
    expect(result.verdict).toBe('pending')
    expect(result.problems?.[0]?.severity).toBe('warning')
    expect(result.problems?.[0]?.reason).toBe('RouteNotFound')
  })
})
