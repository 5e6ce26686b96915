// Which Route the Gateway gives a probe request to, by the Gateway API's precedence rules.
import { describe, expect, it } from 'vitest'
import { normalizeParentRef } from '../../../src/model/parent-ref.ts'
import type { RouteObject } from '../../../src/model/types.ts'
import { winningRoute } from '../../../src/probe/rules/precedence.ts'
import { probeRequest } from '../../helpers/probe-servers.ts'

const parent = normalizeParentRef({ name: 'edge', namespace: 'infra' }, 'shop')

function route(
  name: string,
  o: {
    hostnames?: string[]
    matches?: Record<string, unknown>[]
    created?: string
    accepted?: boolean
    sectionName?: string
  }
): RouteObject {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name, namespace: 'shop', creationTimestamp: o.created ?? '2026-01-02T00:00:00Z' },
    spec: {
      parentRefs: [
        { name: 'edge', namespace: 'infra', ...(o.sectionName && { sectionName: o.sectionName }) }
      ],
      hostnames: o.hostnames ?? ['shop.example.com'],
      rules: [{ matches: o.matches ?? [{ path: { type: 'PathPrefix', value: '/shop' } }] }]
    },
    status: {
      parents: [
        {
          parentRef: { name: 'edge', namespace: 'infra' },
          controllerName: 'c',
          conditions: [{ type: 'Accepted', status: o.accepted === false ? 'False' : 'True' }]
        }
      ]
    }
  }
}

const request = probeRequest(80, { path: '/shop' })
const own = route('own', {})

describe('winningRoute', () => {
  it('gives the request to an Exact path over this Route’s prefix, naming both', () => {
    const older = route('older', { matches: [{ path: { type: 'Exact', value: '/shop' } }] })
    const won = winningRoute(request, own, parent, [older])
    expect(won?.route.metadata.name).toBe('older')
    expect(won?.why).toBe(
      "HTTPRoute shop/older claims it with Exact path /shop, which takes precedence over this Route's path prefix /shop"
    )
  })

  it('prefers the longer prefix, then a method, then more headers', () => {
    const longer = route('longer', { matches: [{ path: { type: 'PathPrefix', value: '/sh' } }] })
    expect(
      winningRoute(
        probeRequest(80, { path: '/sh/x' }),
        route('own', { matches: [{ path: { type: 'PathPrefix', value: '/' } }] }),
        parent,
        [longer]
      )?.route.metadata.name
    ).toBe('longer')
    const withMethod = route('m', {
      matches: [{ path: { type: 'PathPrefix', value: '/shop' }, method: 'GET' }]
    })
    expect(winningRoute(request, own, parent, [withMethod])?.route.metadata.name).toBe('m')
    const mine = route('own', {
      matches: [{ path: { type: 'PathPrefix', value: '/shop' }, method: 'GET' }]
    })
    expect(winningRoute(request, mine, parent, [route('plain', {})])).toBeUndefined()
  })

  it('breaks ties by age, then by name', () => {
    const older = route('older', { created: '2026-01-01T00:00:00Z' })
    expect(winningRoute(request, own, parent, [older])?.route.metadata.name).toBe('older')
    const newer = route('newer', { created: '2026-01-03T00:00:00Z' })
    expect(winningRoute(request, own, parent, [newer])).toBeUndefined()
    const sameAgeEarlierName = route('a-route', {})
    expect(winningRoute(request, own, parent, [sameAgeEarlierName])?.route.metadata.name).toBe(
      'a-route'
    )
  })

  it('gives an exact hostname precedence over a wildcard', () => {
    const wildOwn = route('own', { hostnames: ['*.example.com'] })
    expect(
      winningRoute(request, wildOwn, parent, [
        route('zz-exact', { created: '2026-02-01T00:00:00Z' })
      ])?.route.metadata.name
    ).toBe('zz-exact')
  })

  it('ignores Routes that do not match, are not accepted, or sit on another listener', () => {
    const others = [
      route('other-host', { hostnames: ['other.example.com'], created: '2020-01-01T00:00:00Z' }),
      route('other-path', { matches: [{ path: { type: 'Exact', value: '/cart' } }] }),
      route('refused', { created: '2020-01-01T00:00:00Z', accepted: false }),
      route('elsewhere', { created: '2020-01-01T00:00:00Z', sectionName: 'https' }),
      route('header', {
        matches: [
          { path: { type: 'Exact', value: '/shop' }, headers: [{ name: 'x-a', value: '1' }] }
        ]
      })
    ]
    expect(winningRoute(request, own, parent, others)).toBeUndefined()
  })
})

describe('which other Routes compete, read as the verdict reads them', () => {
  const exact = [{ path: { type: 'Exact', value: '/shop' } }]
  const rival = (name: string, ref: Record<string, unknown>, status: Record<string, unknown>) => {
    const r = route(name, { matches: exact })
    r.metadata.generation = 2
    r.spec = {
      ...(r.spec as Record<string, unknown>),
      parentRefs: [{ name: 'edge', namespace: 'infra', ...ref }]
    }
    r.status = {
      parents: [
        {
          parentRef: { name: 'edge', namespace: 'infra', ...ref },
          controllerName: 'c',
          conditions: [{ type: 'Accepted', status: 'True', observedGeneration: 2, ...status }]
        }
      ]
    }
    return r
  }

  it('a Route attached to a Gateway of another group does not compete', () => {
    const other = rival('other-group', { group: 'example.com', kind: 'Gateway' }, {})
    expect(winningRoute(request, own, parent, [other])).toBeUndefined()
    // the same Route on the Gateway API group does
    expect(winningRoute(request, own, parent, [rival('same', {}, {})])?.route.metadata.name).toBe(
      'same'
    )
  })

  it('a parentRef whose port is not the probed listener’s does not compete', () => {
    const elsewhere = rival('port', { port: 8443 }, {})
    expect(winningRoute(request, own, parent, [elsewhere])).toBeUndefined()
    expect(
      winningRoute(request, own, parent, [rival('port-80', { port: 80 }, {})])?.route.metadata.name
    ).toBe('port-80')
  })

  it('an Accepted condition of an older generation does not count', () => {
    const stale = rival('stale', {}, { observedGeneration: 1 })
    expect(winningRoute(request, own, parent, [stale])).toBeUndefined()
  })
})
