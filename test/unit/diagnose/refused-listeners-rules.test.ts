// A listener its controller refused is the cause of NotAllowedByListeners and NoMatchingParent on the
// Routes that target it: the title and the remediation lead with that listener, its controller, the
// condition and the fix for its reason, never "use a controller that supports HTTPRoute".
import { describe, expect, it } from 'vitest'
import type { DiagnosisContext } from '../../../src/diagnose/context.ts'
import { explainNoMatchingParent } from '../../../src/diagnose/no-matching-parent.ts'
import { explainNotAllowedByListeners } from '../../../src/diagnose/listeners.ts'
import { listenerRefusal } from '../../../src/rules/refused-listeners.ts'
import { refusalCondition, refusalFix } from '../../../src/wording/refusals.ts'
import type { Listener } from '../../../src/rules/world.ts'
import type { Condition, ParentRef, RouteObject, World } from '../../../src/model/types.ts'
import {
  baseWorld,
  gateway,
  listener,
  listenerStatus,
  openListener,
  parentVerdict,
  ref,
  route
} from '../../fixtures/diagnose/world.ts'

const TRAEFIK = 'traefik.io/gateway-controller'
const ENVOY = 'gateway.envoyproxy.io/gatewayclass-controller'

function context(
  r: RouteObject,
  parentRef: ParentRef,
  reason: string,
  world: World,
  controllerName = TRAEFIK
): DiagnosisContext {
  const finding = { condition: 'Accepted', reason, severity: 'error' as const, controllerName }
  return { route: r, world, finding, parent: parentVerdict({ parentRef, finding, controllerName }) }
}

function condition(
  type: string,
  status: 'True' | 'False',
  reason: string,
  message: string
): Condition {
  return {
    type,
    status,
    reason,
    message,
    observedGeneration: 1,
    lastTransitionTime: '2025-01-01T00:00:00Z'
  }
}

/** What Traefik writes for a listener on a port it has no entryPoint for. */
function portUnavailable(name: string, port: number): Record<string, unknown> {
  return {
    ...listenerStatus(name, []),
    conditions: [
      condition(
        'Accepted',
        'False',
        'PortUnavailable',
        `Cannot find entryPoint for Gateway: no matching entryPoint for port ${port} and protocol "HTTP"`
      )
    ]
  }
}

function withGateway(listeners: unknown[], statuses: unknown[]): World {
  const world = baseWorld()
  world.gateways = [gateway('infra', 'edge', 'traefik', listeners, { listeners: statuses })]
  return world
}

describe('a refused listener leads NotAllowedByListeners', () => {
  const world = withGateway([openListener('http', 8081, 'HTTP')], [portUnavailable('http', 8081)])

  it("Traefik's PortUnavailable with supportedKinds []: the listener, its controller, the condition and the entryPoint fix", () => {
    const d = explainNotAllowedByListeners(
      context(route({}), ref('edge', { sectionName: 'http' }), 'NotAllowedByListeners', world)
    )
    expect(d.title).toBe(
      'Gateway infra/edge: listener http was refused by Traefik (traefik.io/gateway-controller): Accepted=False (PortUnavailable): Cannot find entryPoint for Gateway: no matching entryPoint for port 8081 and protocol "HTTP"'
    )
    expect(d.remediation).toBe(
      'Expose port 8081 on the controller (for Traefik, an entryPoint on port 8081), or move listener http to a port the controller serves.'
    )
    expect(d.remediation).not.toContain('use a controller that supports')
  })

  it('another controller gets the port fix without the Traefik entryPoint', () => {
    const d = explainNotAllowedByListeners(
      context(route({}), ref('edge'), 'NotAllowedByListeners', world, ENVOY)
    )
    expect(d.remediation).toBe(
      'Expose port 8081 on the controller, or move listener http to a port the controller serves.'
    )
  })

  it('some listeners refused, others not admitting the Route: the title says both', () => {
    const w = withGateway(
      [openListener('http', 8081, 'HTTP'), listener('internal', 80, 'HTTP')],
      [portUnavailable('http', 8081), listenerStatus('internal', ['HTTPRoute'])]
    )
    // the Route is in shop, the Gateway in infra: internal admits from: Same only
    const d = explainNotAllowedByListeners(
      context(route({}), ref('edge'), 'NotAllowedByListeners', w)
    )
    expect(d.title).toMatch(
      /^Gateway infra\/edge: listener http was refused by Traefik .*PortUnavailable.*; and listener internal does not allow this HTTPRoute from namespace shop$/
    )
    expect(d.remediation).toMatch(/^Expose port 8081 on the controller/)
    expect(d.remediation).toContain(
      'change listener internal of Gateway infra/edge to admit namespace shop'
    )
  })

  it('two refused listeners: one title in English, each fix once', () => {
    const w = withGateway(
      [openListener('a', 8081, 'HTTP'), openListener('b', 8082, 'HTTP')],
      [portUnavailable('a', 8081), portUnavailable('b', 8082)]
    )
    const d = explainNotAllowedByListeners(
      context(route({}), ref('edge'), 'NotAllowedByListeners', w)
    )
    expect(d.title).toMatch(/^Gateway infra\/edge: listeners a and b were refused by Traefik/)
    expect(d.remediation).toContain('Expose port 8081')
    expect(d.remediation).toContain('expose port 8082')
  })
})

describe('a refused listener leads NoMatchingParent', () => {
  it('the parentRef names the refused listener: its condition, not "set sectionName"', () => {
    const world = withGateway([openListener('http', 8081, 'HTTP')], [portUnavailable('http', 8081)])
    const d = explainNoMatchingParent(
      context(route({}), ref('edge', { sectionName: 'http' }), 'NoMatchingParent', world)
    )
    expect(d.title).toMatch(/^Gateway infra\/edge: listener http was refused by Traefik/)
    expect(d.remediation).toMatch(
      /^Expose port 8081 on the controller \(for Traefik, an entryPoint/
    )
  })

  it('a listener the controller accepted leaves the sectionName advice', () => {
    const world = withGateway(
      [openListener('http', 80, 'HTTP')],
      [listenerStatus('http', ['HTTPRoute'])]
    )
    const d = explainNoMatchingParent(
      context(route({}), ref('edge', { sectionName: 'htp' }), 'NoMatchingParent', world)
    )
    expect(d.remediation).toBe('Set sectionName to "http" (the nearest listener name).')
  })
})

describe('listenerRefusal: what counts as refused, and the fix per reason', () => {
  const l: Listener = { name: 'https', port: 443, protocol: 'HTTPS', from: 'Same', kinds: [] }
  const status = (...conditions: unknown[]) => ({
    name: 'https',
    conditions: conditions as never,
    supportedKinds: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute' }]
  })

  it.each([
    ['Programmed', 'InvalidCertificateRef', 'fix the certificate reference of listener https'],
    [
      'Accepted',
      'UnsupportedProtocol',
      'set the protocol of listener https to one the controller supports (it is HTTPS)'
    ],
    [
      'Programmed',
      'ProtocolConflict',
      'give listener https a port that no listener of another protocol uses'
    ],
    [
      'Programmed',
      'HostnameConflict',
      'give listener https a hostname that no other listener on port 443 uses'
    ],
    ['Programmed', 'Invalid', "fix listener https as the controller's message says"]
  ])('%s=False (%s)', (type, reason, fix) => {
    const r = listenerRefusal(l, status(condition(type, 'False', reason, 'm')), 'HTTPRoute')
    expect(r && refusalCondition(r)).toBe(`${type}=False (${reason}): m`)
    expect(r && refusalFix(r, ENVOY)).toContain(fix)
  })

  it('Pending, True conditions and no status are not refusals', () => {
    expect(
      listenerRefusal(l, status(condition('Programmed', 'False', 'Pending', '')), 'HTTPRoute')
    ).toBeUndefined()
    expect(
      listenerRefusal(l, status(condition('Accepted', 'True', 'Accepted', '')), 'HTTPRoute')
    ).toBeUndefined()
    expect(listenerRefusal(l, undefined, 'HTTPRoute')).toBeUndefined()
  })

  it('supportedKinds lacking a kind the spec admits, with ResolvedRefs=False saying why', () => {
    const r = listenerRefusal(
      l,
      {
        name: 'https',
        supportedKinds: [],
        conditions: [condition('ResolvedRefs', 'False', 'InvalidRouteKinds', 'no kinds')]
      },
      'HTTPRoute'
    )
    expect(r && refusalCondition(r)).toBe(
      'supportedKinds is empty, though the spec admits HTTPRoute; ResolvedRefs=False (InvalidRouteKinds): no kinds'
    )
    // no condition: the controller's kind support, which the kind rules explain
    expect(
      listenerRefusal(l, { name: 'https', supportedKinds: [], conditions: [] }, 'HTTPRoute')
    ).toBeUndefined()
  })
})
