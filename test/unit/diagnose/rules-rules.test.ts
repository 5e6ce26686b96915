// The rule-level rules pinned: which values Gateway API defines for each match field and filter,
// which filter combinations clash, which rules a message is about, and how Fall Back reads the
// PartiallyInvalid message.
import { describe, expect, it } from 'vitest'
import type { DiagnosisContext } from '../../../src/diagnose/context.ts'
import { findController } from '../../../src/rules/controllers.ts'
import {
  explainFallBack,
  explainIncompatibleFilters,
  explainUnsupportedValue
} from '../../../src/diagnose/rules.ts'
import type { Condition, Finding, RouteKind } from '../../../src/model/types.ts'
import { baseWorld, parentVerdict, ref, route } from '../../fixtures/diagnose/world.ts'

const EG = 'gateway.envoyproxy.io/gatewayclass-controller'

function context(
  rules: unknown[],
  reason: string,
  message?: string,
  controllerName?: string,
  kind: RouteKind = 'HTTPRoute'
): DiagnosisContext {
  const finding: Finding = {
    condition: 'Accepted',
    reason,
    severity: 'error',
    ...(controllerName ? { controllerName } : {}),
    ...(message ? { message } : {})
  }
  const controller = findController(controllerName)
  return {
    route: route({ rules }, kind),
    world: baseWorld(),
    finding,
    ...(controller ? { controller } : {})
  }
}

const backend = { name: 'cart', port: 8080 }
const PATH = 'supported: Exact, PathPrefix and RegularExpression.'
const VALUE = 'supported: Exact and RegularExpression.'

describe('UnsupportedValue: values outside what Gateway API defines', () => {
  it('checks header and query matches against Exact and RegularExpression', () => {
    const rules = [
      {
        matches: [
          {
            headers: [{ name: 'x-env', type: 'Prefix', value: 'beta' }],
            queryParams: [{ name: 'debug', type: 'Prefix', value: '1' }]
          }
        ],
        backendRefs: [backend]
      }
    ]
    const d = explainUnsupportedValue(context(rules, 'UnsupportedValue'))
    expect(d.evidence).toEqual([
      `Rule 0 has a header match of type Prefix; ${VALUE}`,
      `Rule 0 has a query match of type Prefix; ${VALUE}`
    ])
    expect(d.title).toBe('Rule 0 has a header match of type Prefix')
    expect(d.remediation).toBe('Change the values named in the evidence to supported ones.')
  })

  it('checks an HTTP method against the nine methods Gateway API defines', () => {
    const rules = [{ matches: [{ method: 'FETCH' }], backendRefs: [backend] }]
    const d = explainUnsupportedValue(context(rules, 'UnsupportedValue', undefined, EG))
    expect(d.evidence).toEqual([
      'Rule 0 matches method FETCH; supported: GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE and PATCH.'
    ])
    expect(d.remediation).toBe(
      'Change the values named in the evidence to supported ones (Envoy Gateway documents its support at https://gateway.envoyproxy.io/docs/troubleshooting/configuration).'
    )
  })

  it('finds nothing wrong in matches Gateway API defines', () => {
    const rules = [
      {
        matches: [
          {
            path: { type: 'Exact', value: '/cart' },
            headers: [{ name: 'x-env', type: 'RegularExpression', value: 'beta|rc' }],
            queryParams: [{ name: 'debug', value: '1' }],
            method: 'GET'
          },
          { path: { type: 'RegularExpression', value: '/api/v[0-9]+' } }
        ],
        backendRefs: [backend]
      }
    ]
    const d = explainUnsupportedValue(context(rules, 'UnsupportedValue'))
    expect(d).toEqual({ evidence: [] })
  })

  it('checks filters against what the controller supports when its catalog says', () => {
    // Contour supports no CORS filter although Gateway API defines one
    const rules = [{ filters: [{ type: 'CORS', cors: {} }], backendRefs: [backend] }]
    const contour = explainUnsupportedValue(
      context(rules, 'UnsupportedValue', undefined, 'projectcontour.io/gateway-controller')
    )
    expect(contour.evidence).toEqual([
      'rule 0 filter 0 has type CORS; supported: RequestHeaderModifier, ResponseHeaderModifier, RequestRedirect, RequestMirror and URLRewrite.'
    ])
    // Traefik has no filter list in the catalog, nor has an unknown controller: the HTTPRoute spec decides
    for (const name of ['traefik.io/gateway-controller', undefined]) {
      expect(explainUnsupportedValue(context(rules, 'UnsupportedValue', undefined, name))).toEqual({
        evidence: []
      })
    }
  })

  it('describes the rules a message names, and only those', () => {
    const rules = [
      { backendRefs: [backend, { name: 'checkout', port: 80 }] },
      { matches: [{ path: { type: 'PathPrefix', value: '/api' } }], backendRefs: [backend] }
    ]
    const d = explainUnsupportedValue(
      context(rules, 'UnsupportedValue', 'spec.rules[0]: weights are not supported')
    )
    expect(d.evidence).toEqual(['Rule 0: no matches; no filters; 2 backendRefs.'])
    expect(d.title).toBeUndefined()
    expect(d.remediation).toBe('Fix rule 0 as the message says; the other rules are unaffected.')
  })

  it('describes no rule when the message names none', () => {
    const rules = [{ matches: [{ path: { type: 'Glob', value: '/*' } }], backendRefs: [backend] }]
    const d = explainUnsupportedValue(context(rules, 'UnsupportedValue', 'unsupported path type'))
    expect(d.evidence).toEqual([`Rule 0 has a path match of type Glob; ${PATH}`])
    expect(
      explainUnsupportedValue(context([{ backendRefs: [backend] }], 'UnsupportedValue'))
    ).toEqual({ evidence: [] })
  })

  it('checks every rule when the rule a message names no longer exists', () => {
    const rules = [
      { backendRefs: [backend] },
      { matches: [{ path: { type: 'Glob', value: '/*' } }], backendRefs: [backend] }
    ]
    const d = explainUnsupportedValue(
      context(rules, 'UnsupportedValue', 'Dropped Rule(s) [4]: unsupported path type')
    )
    expect(d.title).toBe('Rule 1 has a path match of type Glob')
  })
})

describe('IncompatibleFilters: filter combinations the spec forbids', () => {
  it('a RequestRedirect alone, without backendRefs, clashes with nothing', () => {
    const rules = [
      { backendRefs: [backend] },
      { filters: [{ type: 'RequestRedirect', requestRedirect: { scheme: 'https' } }] }
    ]
    const d = explainIncompatibleFilters(context(rules, 'IncompatibleFilters'))
    expect(d).toEqual({ evidence: ['Rule 1: no matches; filters RequestRedirect; 0 backendRefs.'] })
  })

  it('a URLRewrite with backendRefs clashes with nothing', () => {
    const rules = [
      {
        filters: [{ type: 'URLRewrite', urlRewrite: { hostname: 'cart.internal' } }],
        backendRefs: [backend]
      }
    ]
    const d = explainIncompatibleFilters(context(rules, 'IncompatibleFilters'))
    expect(d).toEqual({ evidence: ['Rule 0: no matches; filters URLRewrite; 1 backendRef.'] })
  })

  it('a mirror is not a backendRef, but a RequestRedirect with a real backendRef still clashes', () => {
    const mirror = {
      type: 'RequestMirror',
      requestMirror: { backendRef: { name: 'cart', port: 9090 } }
    }
    const redirect = { type: 'RequestRedirect', requestRedirect: { scheme: 'https' } }
    const onlyMirror = explainIncompatibleFilters(
      context([{ filters: [redirect, mirror] }], 'IncompatibleFilters')
    )
    expect(onlyMirror.title).toBeUndefined()
    const d = explainIncompatibleFilters(
      context([{ filters: [redirect, mirror], backendRefs: [backend] }], 'IncompatibleFilters')
    )
    expect(d.title).toBe(
      'Rule 0 has a RequestRedirect filter and backendRefs; a redirect answers the request itself'
    )
  })

  it('finds a second RequestRedirect or URLRewrite in one rule, but not across a backendRef filter', () => {
    const rewrite = { type: 'URLRewrite', urlRewrite: { hostname: 'a' } }
    const redirect = { type: 'RequestRedirect', requestRedirect: { scheme: 'https' } }
    const twice = explainIncompatibleFilters(
      context(
        [
          { filters: [redirect, redirect] },
          { filters: [rewrite, rewrite], backendRefs: [backend] }
        ],
        'IncompatibleFilters'
      )
    )
    expect(twice.evidence.slice(2)).toEqual([
      'Rule 0 has more than one RequestRedirect filter.',
      'Rule 1 has more than one URLRewrite filter.'
    ])
    expect(twice.remediation).toContain(
      'a rule holds at most one RequestRedirect and one URLRewrite'
    )
    const perBackend = explainIncompatibleFilters(
      context(
        [{ filters: [rewrite], backendRefs: [{ ...backend, filters: [rewrite] }] }],
        'IncompatibleFilters'
      )
    )
    expect(perBackend.title).toBeUndefined()
  })

  it('without a clash, proposes replacing a filter the controller does not support', () => {
    const rules = [{ filters: [{ type: 'CORS', cors: {} }], backendRefs: [backend] }]
    const d = explainIncompatibleFilters(
      context(rules, 'IncompatibleFilters', undefined, 'projectcontour.io/gateway-controller')
    )
    expect(d.title).toBeUndefined()
    expect(d.remediation).toBe(
      'Replace the filter with a supported one: rule 0 filter 0 has type CORS; supported: RequestHeaderModifier, ResponseHeaderModifier, RequestRedirect, RequestMirror and URLRewrite.'
    )
    const traefik = explainIncompatibleFilters(
      context(rules, 'IncompatibleFilters', undefined, 'traefik.io/gateway-controller')
    )
    expect(traefik).toEqual({ evidence: ['Rule 0: no matches; filters CORS; 1 backendRef.'] })
  })
})

describe('Fall Back: the PartiallyInvalid message names the rules', () => {
  const rules = [
    { matches: [{ path: { type: 'Glob', value: '/*' } }], backendRefs: [backend] },
    { matches: [{ path: { type: 'Glob', value: '/api/*' } }], backendRefs: [backend] }
  ]
  const partially = (message: string): Condition => ({
    type: 'PartiallyInvalid',
    status: 'True',
    reason: 'UnsupportedValue',
    message,
    observedGeneration: 2
  })

  it('reads the rules from PartiallyInvalid rather than from the finding', () => {
    const c = context(rules, 'FallBack', 'Fall Back: rule 0 is served from generation 1', EG)
    const d = explainFallBack({
      ...c,
      parent: parentVerdict({
        parentRef: ref('web'),
        conditions: [partially('Dropped Rule(s) [1]: path type Glob')]
      })
    })
    expect(d.evidence).toEqual([
      'PartiallyInvalid says: Dropped Rule(s) [1]: path type Glob',
      'Rule 1: matches path Glob /api/*; no filters; 1 backendRef.',
      `Rule 1 has a path match of type Glob; ${PATH}`
    ])
    expect(d.remediation).toBe(
      'Change the values named in the evidence to supported ones (Envoy Gateway documents its support at https://gateway.envoyproxy.io/docs/troubleshooting/configuration).'
    )
  })

  it('without PartiallyInvalid, reads the rules from the finding message', () => {
    const c = context(rules, 'FallBack', 'Fall Back: rule 0 uses path type Glob', EG)
    const d = explainFallBack({ ...c, parent: parentVerdict({ parentRef: ref('web') }) })
    expect(d.evidence).toEqual([
      'Rule 0: matches path Glob /*; no filters; 1 backendRef.',
      `Rule 0 has a path match of type Glob; ${PATH}`
    ])
    expect(explainFallBack(c).evidence[0]).toBe(
      'Rule 0: matches path Glob /*; no filters; 1 backendRef.'
    )
  })

  it('gives no remediation when nothing is outside the spec and no rule is named', () => {
    const c = context([{ backendRefs: [backend] }], 'FallBack', undefined, EG)
    expect(explainFallBack(c)).toEqual({ evidence: [] })
  })
})
