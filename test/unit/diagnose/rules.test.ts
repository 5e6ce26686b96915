import { describe, expect, it } from 'vitest'
import { explainRoute } from '../../../src/diagnose/explain.ts'
import type { Condition, Finding, Problem, RouteObject } from '../../../src/model/types.ts'
import {
  MODES,
  baseWorld,
  ref,
  route,
  routeVerdict,
  severityIn
} from '../../fixtures/diagnose/world.ts'

const EG = 'gateway.envoyproxy.io/gatewayclass-controller'

function problemFor(
  r: RouteObject,
  finding: Finding,
  conditions: Condition[] = [],
  controllerName = EG
): Problem | undefined {
  const world = baseWorld('eg', controllerName)
  return explainRoute(
    routeVerdict(r, [{ parentRef: ref('web'), finding, controllerName, conditions }]),
    world
  ).parents[0]?.problems[0]
}

const rules = [
  {
    matches: [{ path: { type: 'PathPrefix', value: '/' } }],
    backendRefs: [{ name: 'cart', port: 8080 }]
  },
  {
    matches: [
      {
        path: { type: 'Glob', value: '/api/*' },
        headers: [{ name: 'x-env', type: 'Exact', value: 'beta' }]
      }
    ],
    filters: [
      { type: 'RequestRedirect', requestRedirect: { scheme: 'https' } },
      {
        type: 'URLRewrite',
        urlRewrite: { path: { type: 'ReplaceFullPath', replaceFullPath: '/' } }
      }
    ],
    backendRefs: [{ name: 'checkout', port: 80 }]
  },
  { filters: [{ type: 'RateLimit' }], backendRefs: [{ name: 'cart', port: 8080 }] }
]

describe.each(MODES)('UnsupportedValue (%s mode)', (mode) => {
  const severity = severityIn(mode)

  it('describes the rule the message names and the value outside the spec', () => {
    const message = 'Dropped Rule(s) [1]: unsupported path match type Glob'
    const p = problemFor(route({ rules }), {
      condition: 'PartiallyInvalid',
      reason: 'UnsupportedValue',
      severity,
      message,
      controllerName: EG
    })
    expect(p?.standard).toBe(true)
    expect(p?.evidence).toContain(
      'Rule 1: matches path Glob /api/* and header x-env Exact; filters RequestRedirect and URLRewrite; 1 backendRef.'
    )
    expect(p?.evidence).toContain(
      'Rule 1 has a path match of type Glob; supported: Exact, PathPrefix and RegularExpression.'
    )
    expect(p?.title).toBe('Rule 1 has a path match of type Glob')
    expect(p?.evidence?.join(' ')).not.toContain('Rule 0:')
  })

  it('reads NGF field paths and names an unknown filter type', () => {
    const message = 'spec.rules[2].filters[0].type: Unsupported value: "RateLimit"'
    const ngf = 'gateway.nginx.org/nginx-gateway-controller'
    const p = problemFor(
      route({ rules }),
      { condition: 'Accepted', reason: 'UnsupportedValue', severity, message, controllerName: ngf },
      [],
      ngf
    )
    expect(p?.evidence).toContain(
      'rule 2 filter 0 has type RateLimit; supported: RequestHeaderModifier, ResponseHeaderModifier, RequestMirror, RequestRedirect, URLRewrite, CORS, ExternalAuth and ExtensionRef.'
    )
    expect(p?.remediation).toContain(
      'NGINX Gateway Fabric documents its support at https://docs.nginx.com/'
    )
  })

  it('uses the controller catalog for UnsupportedValue on ResolvedRefs (not a standard pairing)', () => {
    const r = route({ rules: [{ backendRefs: [{ name: 'legacy', port: 80 }] }] })
    const p = problemFor(r, {
      condition: 'ResolvedRefs',
      reason: 'UnsupportedValue',
      severity,
      message: 'ExternalName Service is not supported',
      controllerName: EG
    })
    expect(p?.standard).toBe(false)
    expect(p?.remediation).toContain('Backend resource')
    expect(p?.title).toContain('ExternalName')
  })
})

describe.each(MODES)('IncompatibleFilters and Fall Back (%s mode)', (mode) => {
  const severity = severityIn(mode)

  it('names the rule combining RequestRedirect with URLRewrite and backendRefs', () => {
    const message = 'Dropped Rule(s) [1]: RequestRedirect filter cannot be used with URLRewrite'
    const p = problemFor(route({ rules }), {
      condition: 'PartiallyInvalid',
      reason: 'IncompatibleFilters',
      severity,
      message,
      controllerName: EG
    })
    expect(p?.title).toBe('Rule 1 combines RequestRedirect and URLRewrite')
    expect(p?.evidence).toContain(
      'Rule 1 has a RequestRedirect filter and backendRefs; a redirect answers the request itself.'
    )
    expect(p?.remediation).toContain('Split the rule in two')
  })

  it('explains Fall Back from the PartiallyInvalid message', () => {
    const partially: Condition = {
      type: 'PartiallyInvalid',
      status: 'True',
      reason: 'UnsupportedValue',
      message: 'Fall Back: rule 1 uses path type Glob',
      observedGeneration: 2
    }
    const p = problemFor(
      route({ rules }),
      { condition: 'Accepted', reason: 'FallBack', severity: 'error', controllerName: EG },
      [partially]
    )
    expect(p?.standard).toBeUndefined()
    expect(p?.title).toBe(
      'The controller serves an older version of the Route (PartiallyInvalid: Fall Back)'
    )
    expect(p?.evidence).toContain('PartiallyInvalid says: Fall Back: rule 1 uses path type Glob')
    expect(p?.evidence).toContain(
      'Rule 1 has a path match of type Glob; supported: Exact, PathPrefix and RegularExpression.'
    )
  })
})
