// What diagnosis reads from a Route's spec, pinned: hostnames, backendRefs (mirrors included,
// defaults as the CRD applies them), filters at rule and backendRef level, matches of every field,
// rules that send nowhere, and the rule indices controllers write in their messages.
import { describe, expect, it } from 'vitest'
import {
  describeBackendRef,
  describeMatch,
  emptyRules,
  isServiceRef,
  reportsEmptyRules,
  routeBackendRefs,
  routeHostnames,
  routeRules,
  rulesNamedIn
} from '../../../src/model/route-spec.ts'
import type { BackendRef } from '../../../src/model/route-spec.ts'
import { route } from '../../fixtures/diagnose/world.ts'

describe('routeHostnames', () => {
  it('keeps the string hostnames of a hand-written spec', () => {
    expect(
      routeHostnames(route({ hostnames: ['shop.example.com', 42, null, 'www.example.com'] }))
    ).toEqual(['shop.example.com', 'www.example.com'])
    expect(routeHostnames(route({}))).toEqual([])
  })
})

describe('isServiceRef', () => {
  it('is a core Service only: not a ServiceImport, not group "core"', () => {
    expect(isServiceRef({ group: '', kind: 'Service' })).toBe(true)
    expect(isServiceRef({ group: 'core', kind: 'Service' })).toBe(false)
    expect(isServiceRef({ group: '', kind: 'Secret' })).toBe(false)
    expect(isServiceRef({ group: 'multicluster.x-k8s.io', kind: 'ServiceImport' })).toBe(false)
  })
})

describe('routeRules: backendRefs and filters', () => {
  it('reads mirrors, backendRef filters and ExtensionRefs, and skips entries without name or type', () => {
    const rules = routeRules(
      route({
        rules: [
          {
            filters: [
              {
                type: 'RequestMirror',
                requestMirror: { backendRef: { name: 'cart', port: 9090 } }
              },
              { requestRedirect: { scheme: 'https' } },
              {
                type: 'ExtensionRef',
                extensionRef: {
                  group: 'gateway.envoyproxy.io',
                  kind: 'HTTPRouteFilter',
                  name: 'rewrite'
                }
              },
              { type: 'RequestHeaderModifier', extensionRef: { group: 'x', kind: 'y', name: 'z' } }
            ],
            backendRefs: [
              {
                name: 'checkout',
                port: 80,
                filters: [
                  { type: 'ResponseHeaderModifier', responseHeaderModifier: {} },
                  { responseHeaderModifier: {} }
                ]
              },
              { port: 80 },
              { group: 'gateway.envoyproxy.io', kind: 'Backend', name: 'ext', namespace: 'edge' }
            ]
          },
          {}
        ]
      })
    )
    expect(rules).toHaveLength(2)
    const [rule, empty] = rules
    expect(rule?.backendRefs).toEqual([
      {
        where: 'rule 0 RequestMirror filter',
        rule: 0,
        group: '',
        kind: 'Service',
        name: 'cart',
        namespace: 'shop',
        port: 9090
      },
      {
        where: 'rule 0 backendRef 0',
        rule: 0,
        group: '',
        kind: 'Service',
        name: 'checkout',
        namespace: 'shop',
        port: 80
      },
      {
        where: 'rule 0 backendRef 2',
        rule: 0,
        group: 'gateway.envoyproxy.io',
        kind: 'Backend',
        name: 'ext',
        namespace: 'edge'
      }
    ])
    expect(rule?.filters).toEqual([
      { where: 'rule 0 filter 0', type: 'RequestMirror' },
      {
        where: 'rule 0 filter 2',
        type: 'ExtensionRef',
        extensionRef: { group: 'gateway.envoyproxy.io', kind: 'HTTPRouteFilter', name: 'rewrite' }
      },
      { where: 'rule 0 filter 3', type: 'RequestHeaderModifier' },
      { where: 'rule 0 backendRef 0 filter 0', type: 'ResponseHeaderModifier' }
    ])
    expect(rule?.filters[2]).not.toHaveProperty('extensionRef')
    expect(empty).toEqual({
      index: 1,
      filters: [],
      matches: [],
      // an HTTPRoute rule without matches takes every request under /
      requestMatches: [{ path: { type: 'PathPrefix', value: '/' }, headers: [], queryParams: [] }],
      backendRefs: []
    })
  })

  it('reads a Route without rules as none', () => {
    expect(routeRules(route({}))).toEqual([])
    expect(routeBackendRefs(route({ rules: [{ matches: [] }] }))).toEqual([])
  })
})

describe('routeRules: matches', () => {
  const matches = (raw: unknown[], kind: 'HTTPRoute' | 'GRPCRoute' = 'HTTPRoute') =>
    routeRules(route({ rules: [{ matches: raw }] }, kind))[0]?.matches

  it('reads headers and query parameters (type Exact by default) without inventing a path', () => {
    expect(
      matches([
        {
          headers: [{ name: 'x-env', value: 'beta' }],
          queryParams: [{ name: 'debug', type: 'RegularExpression', value: '1|true' }]
        }
      ])
    ).toEqual([
      { field: 'header', type: 'Exact', value: 'x-env' },
      { field: 'query', type: 'RegularExpression', value: 'debug' }
    ])
  })

  it('reads a path with the defaults the CRD applies (PathPrefix /)', () => {
    expect(
      matches([{ path: {} }, { path: { value: '/api' } }, { path: { type: 'Exact' } }])
    ).toEqual([
      { field: 'path', type: 'PathPrefix', value: '/' },
      { field: 'path', type: 'PathPrefix', value: '/api' },
      { field: 'path', type: 'Exact', value: '/' }
    ])
  })

  it('reads an HTTP method and a gRPC method with its defaults, and skips non-objects', () => {
    expect(matches([{ method: 'POST' }, null, 'GET'])).toEqual([
      { field: 'method', type: 'POST', value: '' }
    ])
    expect(
      matches(
        [
          { method: { service: 'shop.Cart' } },
          { method: { method: 'Get' } },
          { method: { type: 'RegularExpression', service: 'shop.*', method: 'Get.*' } }
        ],
        'GRPCRoute'
      )
    ).toEqual([
      { field: 'gRPC method', type: 'Exact', value: 'shop.Cart/*' },
      { field: 'gRPC method', type: 'Exact', value: '*/Get' },
      { field: 'gRPC method', type: 'RegularExpression', value: 'shop.*/Get.*' }
    ])
  })

  it('describes each kind of match as a reader writes it', () => {
    expect(describeMatch({ field: 'path', type: 'PathPrefix', value: '/api' })).toBe(
      'path PathPrefix /api'
    )
    expect(describeMatch({ field: 'method', type: 'GET', value: '' })).toBe('method GET')
    expect(describeMatch({ field: 'header', type: 'Exact', value: 'x-env' })).toBe(
      'header x-env Exact'
    )
  })
})

describe('emptyRules and reportsEmptyRules', () => {
  const withEmpty = route({
    rules: [
      { backendRefs: [{ name: 'cart', port: 8080 }] },
      {
        filters: [
          { type: 'RequestMirror', requestMirror: { backendRef: { name: 'cart', port: 9090 } } }
        ]
      },
      { filters: [{ type: 'RequestHeaderModifier', requestHeaderModifier: {} }] },
      { filters: [{ type: 'RequestRedirect', requestRedirect: { scheme: 'https' } }] }
    ]
  })
  const full = route({ rules: [{ backendRefs: [{ name: 'cart', port: 8080 }] }] })

  it('a rule with only a mirror or a header filter sends nowhere; a redirect does', () => {
    expect(emptyRules(withEmpty).map((r) => r.index)).toEqual([1, 2])
    expect(emptyRules(full)).toEqual([])
  })

  it('reads the ways controllers say a rule has no backends', () => {
    for (const message of [
      'At least one Spec.Rules.BackendRef must be specified.',
      'rule has no valid backend',
      'backend refs are required for this rule'
    ]) {
      expect(reportsEmptyRules(message, withEmpty)).toBe(true)
    }
    expect(reportsEmptyRules('service "cart" not found', withEmpty)).toBe(false)
    expect(reportsEmptyRules(undefined, withEmpty)).toBe(false)
  })

  it('is not about empty rules when the Route has none', () => {
    expect(reportsEmptyRules('rule has no valid backend', full)).toBe(false)
  })
})

describe('rulesNamedIn', () => {
  it('reads multi-digit indices in every shape, sorted', () => {
    expect(rulesNamedIn('spec.rules[12].matches[0].path: Invalid value')).toEqual([12])
    expect(rulesNamedIn('route rule 10 has an invalid filter')).toEqual([10])
    expect(rulesNamedIn('spec.rules[3]: x; spec.rules[1]: y; spec.rules[2]: z')).toEqual([1, 2, 3])
    expect(rulesNamedIn('Dropped Rules [0, 2]: unsupported')).toEqual([0, 2])
    expect(rulesNamedIn('Dropped Rule [3]: unsupported')).toEqual([3])
    expect(rulesNamedIn('Dropped Rule(s)[1]: unsupported')).toEqual([1])
    expect(rulesNamedIn('Dropped Rule(s) [ 1, 2 ]: unsupported')).toEqual([1, 2])
  })
})

describe('describeBackendRef', () => {
  const base: BackendRef = {
    where: 'rule 0 backendRef 0',
    rule: 0,
    group: '',
    kind: 'Service',
    name: 'cart',
    namespace: 'shop'
  }
  it('names the kind with its group, and the port when there is one', () => {
    expect(describeBackendRef(base)).toBe('Service shop/cart')
    expect(describeBackendRef({ ...base, port: 8080 })).toBe('Service shop/cart:8080')
    expect(
      describeBackendRef({
        ...base,
        group: 'gateway.envoyproxy.io',
        kind: 'Backend',
        name: 'ext',
        port: 443
      })
    ).toBe('Backend.gateway.envoyproxy.io shop/ext:443')
    expect(describeBackendRef({ ...base, kind: 'Secret', name: 'tls' })).toBe('Secret shop/tls')
  })
})
