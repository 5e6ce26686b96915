import { describe, expect, it } from 'vitest'
import {
  conditionLabel,
  formatDuration,
  formatParentRef,
  problemReason,
  routeId
} from '../../../src/report/labels.ts'

const gateway = {
  group: 'gateway.networking.k8s.io',
  kind: 'Gateway',
  namespace: 'infra',
  name: 'edge'
}

describe('labels', () => {
  it('names a Route by kind, namespace and name', () => {
    expect(routeId({ kind: 'GRPCRoute', namespace: 'shop', name: 'api' })).toBe(
      'GRPCRoute shop/api'
    )
  })

  it('names a parent with the one parentRef formatter of the model', () => {
    expect(formatParentRef(gateway)).toBe('infra/edge')
    expect(formatParentRef({ ...gateway, sectionName: 'https', port: 443 })).toBe(
      'infra/edge#https:443'
    )
  })

  it('names other parents (a mesh Service) with their kind', () => {
    expect(
      formatParentRef({ group: '', kind: 'Service', namespace: 'shop', name: 'api', port: 8080 })
    ).toBe('Service shop/api:8080')
  })

  it('formats durations for people', () => {
    expect(formatDuration(4200)).toBe('4.2s')
    expect(formatDuration(64_200)).toBe('1m 4s')
    expect(formatDuration(2 * 3600_000 + 5 * 60_000)).toBe('2h 5m')
    expect(formatDuration(61 * 3600_000)).toBe('2d 13h')
    expect(formatDuration(-5)).toBe('0.0s')
  })

  it('writes conditions compactly and marks stale ones', () => {
    expect(conditionLabel({ type: 'Accepted', status: 'True', reason: 'Accepted' })).toBe(
      'Accepted=True'
    )
    expect(
      conditionLabel({ type: 'Accepted', status: 'False', reason: 'NotAllowedByListeners' })
    ).toBe('Accepted=False (NotAllowedByListeners)')
    expect(conditionLabel({ type: 'ResolvedRefs', status: 'Unknown', fresh: false })).toBe(
      'ResolvedRefs=Unknown (stale)'
    )
  })

  it('names a problem by condition and reason, or by its synthetic reason alone', () => {
    const base = { severity: 'error' as const, title: 't', remediation: 'r' }
    expect(problemReason({ ...base, condition: 'Accepted', reason: 'NoMatchingParent' })).toBe(
      'Accepted / NoMatchingParent'
    )
    expect(problemReason({ ...base, reason: 'NoStatus' })).toBe('NoStatus')
  })
})
