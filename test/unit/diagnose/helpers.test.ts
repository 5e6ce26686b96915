import { describe, expect, it } from 'vitest'
import { acceptedHostnames, hostnameFor, hostnamesIntersect } from '../../../src/rules/hostnames.ts'
import { nearestNames } from '../../../src/model/nearest.ts'
import { isStandardReason, reasonEntry } from '../../../src/diagnose/reasons.ts'
import { rulesNamedIn } from '../../../src/model/route-spec.ts'
import { checkSelector } from '../../../src/rules/selectors.ts'
import { newestTimestamp } from '../../../src/model/clock.ts'
import { formatDuration } from '../../../src/wording/phrasing.ts'
import { yamlScalar } from '../../../src/report/object-yaml.ts'
import { blindSpots } from '../../../src/wording/objects.ts'
import type { World } from '../../../src/model/types.ts'

describe('hostname intersection', () => {
  it.each([
    ['a.example.com', '*.example.com', true],
    ['a.b.example.com', '*.example.com', true],
    ['example.com', '*.example.com', false],
    ['*.com', '*.example.com', true],
    ['*.example.org', '*.example.com', false],
    ['Shop.Example.com', 'shop.example.com', true],
    ['shop.example.com', 'cart.example.com', false]
  ])('%s with %s: %s', (a, b, expected) => {
    expect(hostnamesIntersect(a, b)).toBe(expected)
    expect(hostnamesIntersect(b, a)).toBe(expected)
  })

  it('accepts every Route hostname when either side sets none', () => {
    expect(acceptedHostnames(undefined, ['a.example.org'])).toEqual(['a.example.org'])
    expect(acceptedHostnames('*.example.com', ['a.example.org', 'b.example.com'])).toEqual([
      'b.example.com'
    ])
  })

  it('builds a hostname a listener accepts from the Route hostname', () => {
    expect(hostnameFor('*.example.com', 'shop.example.org')).toBe('shop.example.com')
    expect(hostnameFor('api.example.com', 'shop.example.org')).toBe('api.example.com')
    expect(hostnameFor('*.example.com', undefined)).toBe('www.example.com')
  })
})

describe('nearest names', () => {
  it('finds typos and contained names, closest first', () => {
    expect(nearestNames('carts', ['cart', 'checkout', 'carts-v2', 'payments'])).toEqual([
      'cart',
      'carts-v2'
    ])
    expect(nearestNames('zzz', ['cart', 'checkout'])).toEqual([])
  })
})

describe('label selectors', () => {
  it('lists the unmet requirements and the label changes that satisfy them', () => {
    const selector = {
      matchLabels: { team: 'web' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'staging'] },
        { key: 'legacy', operator: 'DoesNotExist' },
        { key: 'tier', operator: 'Exists' }
      ]
    }
    const check = checkSelector(selector, { team: 'shop', legacy: 'yes' })
    expect(check.matches).toBe(false)
    expect(check.labelChanges).toEqual(['team=web', 'env=prod', 'legacy-', 'tier=true'])
    expect(checkSelector(selector, { team: 'web', env: 'staging', tier: 'a' }).matches).toBe(true)
  })
})

describe('reason catalog', () => {
  it('knows which condition each standard reason belongs to', () => {
    expect(isStandardReason('Accepted', 'NotAllowedByListeners')).toBe(true)
    expect(isStandardReason('ResolvedRefs', 'UnsupportedValue')).toBe(false)
    expect(isStandardReason('PartiallyInvalid', 'UnsupportedValue')).toBe(true)
    expect(isStandardReason(undefined, 'NoStatus')).toBe(false)
    expect(reasonEntry('StaleStatus')?.remediation).toContain('lagging or stopped')
  })
})

describe('small readers', () => {
  it('reads rule indices in every shape controllers write them', () => {
    expect(rulesNamedIn('spec.rules[2].filters[0].type: Unsupported value')).toEqual([2])
    expect(rulesNamedIn('Failed to process route rule 1 backendRef 0: service not found')).toEqual([
      1
    ])
    expect(rulesNamedIn('Dropped Rule(s) [0 3]: bad')).toEqual([0, 3])
    expect(rulesNamedIn(undefined)).toEqual([])
  })

  it('formats durations and YAML scalars', () => {
    expect(formatDuration(42_000)).toBe('42.0s')
    expect(formatDuration(3_900_000)).toBe('1h 5m')
    expect(formatDuration(3 * 86_400_000)).toBe('3d 0h')
    expect(yamlScalar('shop')).toBe('shop')
    expect(yamlScalar('true')).toBe('"true"')
    expect(yamlScalar('a: b')).toBe('"a: b"')
  })
})

describe('blind spots', () => {
  const world = (unreadable: string[], partial = false): World => ({
    gatewayClasses: [],
    gateways: [],
    namespaces: [],
    services: [],
    referenceGrants: [],
    unreadable,
    ...(partial ? { partial } : {})
  })

  it('matches unreadable entries by resource and namespace, as the cluster layer words them', () => {
    const w = world([
      'services in namespace shop: forbidden (list)',
      'gateways in all namespaces: forbidden (list)',
      'gatewayclasses: forbidden (list)'
    ])
    expect(blindSpots(w, 'services', 'shop')).toEqual([
      'Could not read services in namespace shop: forbidden (list).'
    ])
    expect(blindSpots(w, 'services', 'payments')).toEqual([])
    expect(blindSpots(w, 'gateways', 'infra')).toEqual([
      'Could not read gateways in all namespaces: forbidden (list).'
    ])
    expect(blindSpots(w, 'gatewayclasses')).toEqual([
      'Could not read gatewayclasses: forbidden (list).'
    ])
    expect(blindSpots(world(['namespace shop: forbidden (get)']), 'namespaces')).toEqual([
      'Could not read namespace shop: forbidden (get).'
    ])
  })

  it('says a kind is missing from a partial source', () => {
    expect(blindSpots(world([], true), 'referencegrants')).toEqual([
      'The source holds no ReferenceGrants, so they could not be checked.'
    ])
    expect(blindSpots(world([]), 'referencegrants')).toEqual([])
  })
})

describe('newestTimestamp', () => {
  it('finds the newest condition, metadata or managedFields time in a dump, and none without any', () => {
    const objects = [
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'a', creationTimestamp: '2025-03-01T09:00:00Z' }
      },
      {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'HTTPRoute',
        metadata: { name: 'b', managedFields: [{ time: '2025-03-01T11:00:00Z' }] },
        status: {
          parents: [
            {
              conditions: [
                { lastTransitionTime: '2025-03-01T10:00:00Z', message: '2030-01-01T00:00:00Z' }
              ]
            }
          ]
        }
      }
    ]
    expect(newestTimestamp(objects)?.toISOString()).toBe('2025-03-01T11:00:00.000Z')
    expect(newestTimestamp([{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'a' } }])).toBe(
      undefined
    )
  })
})
