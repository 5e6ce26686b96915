import { describe, expect, it } from 'vitest'
import { explainRoute } from '../../../src/diagnose/explain.ts'
import type { Finding, ParentRef, Problem, World } from '../../../src/model/types.ts'
import {
  MODES,
  baseWorld,
  gateway,
  gatewayClass,
  ref,
  route,
  routeVerdict,
  severityIn,
  verdictIn
} from '../../fixtures/diagnose/world.ts'
import type { Mode } from '../../fixtures/diagnose/world.ts'
import { fixText } from '../../helpers/fixes.ts'

function noStatus(mode: Mode): Finding {
  return { reason: 'NoStatus', severity: severityIn(mode) }
}

function problemFor(
  parentRef: ParentRef,
  finding: Finding,
  world: World,
  mode: Mode,
  extra: { otherControllers?: { controllerName: string; conditions: [] }[] } = {},
  r = route({})
): Problem | undefined {
  const verdict = routeVerdict(r, [
    { parentRef, finding, controllerName: null, verdict: verdictIn(mode), ...extra }
  ])
  return explainRoute(verdict, world).parents[0]?.problems[0]
}

const PENDING_STATUS = {
  conditions: [
    {
      type: 'Accepted',
      status: 'Unknown',
      reason: 'Pending',
      message: 'Waiting for controller',
      lastTransitionTime: '1970-01-01T00:00:00Z'
    },
    {
      type: 'Programmed',
      status: 'Unknown',
      reason: 'Pending',
      message: 'Waiting for controller',
      lastTransitionTime: '1970-01-01T00:00:00Z'
    }
  ]
}

describe.each(MODES)('NoStatus (%s mode)', (mode) => {
  it('says the Gateway does not exist and gives the nearest names and other namespaces', () => {
    const world = baseWorld()
    world.gateways.push(gateway('edge', 'webb', 'istio', []))
    const p = problemFor(ref('webb'), noStatus(mode), world, mode)
    expect(p?.severity).toBe(severityIn(mode))
    expect(p?.standard).toBeUndefined()
    expect(p?.title).toBe('Gateway infra/webb named by the parentRef does not exist')
    expect(p?.evidence).toEqual([
      'Gateway infra/webb does not exist.',
      'Gateways in namespace infra: web and internal.',
      'A Gateway named webb exists in namespace edge.'
    ])
    expect(p?.remediation).toBe(
      'Set the parentRef namespace to "edge", or set the parentRef name to "web" (the nearest existing name), or create Gateway infra/webb.'
    )
  })

  it('says the GatewayClass does not exist', () => {
    const world = baseWorld()
    world.gateways = [gateway('infra', 'web', 'istoi', [])]
    const p = problemFor(ref('web'), noStatus(mode), world, mode)
    expect(p?.title).toBe('GatewayClass istoi of Gateway infra/web does not exist')
    expect(p?.remediation).toContain('Set spec.gatewayClassName of Gateway infra/web to "istio"')
  })

  it('says no controller accepted the class and none wrote Gateway status', () => {
    const world = baseWorld()
    world.gatewayClasses = [
      gatewayClass('istio', 'istio.io/gateway-controller', {
        conditions: [
          {
            type: 'Accepted',
            status: 'Unknown',
            reason: 'Pending',
            message: 'Waiting for controller'
          }
        ]
      })
    ]
    world.gateways = [gateway('infra', 'web', 'istio', [], PENDING_STATUS)]
    const p = problemFor(ref('web'), noStatus(mode), world, mode)
    expect(p?.title).toBe(
      'No controller has accepted GatewayClass istio (istio.io/gateway-controller)'
    )
    expect(p?.evidence).toContain('No controller has written status on Gateway infra/web either.')
    expect(p?.remediation).toContain('install or start Istio (istio.io/gateway-controller)')
  })

  it('a class left Pending while the controller serves another Gateway of it: runs, does not serve this one', () => {
    const world = baseWorld()
    world.gatewayClasses = [
      gatewayClass('contour', 'projectcontour.io/gateway-controller', {
        conditions: [{ type: 'Accepted', status: 'Unknown', reason: 'Pending' }]
      })
    ]
    // Contour in static mode: serves infra/internal only; infra/web keeps the CRD default status
    world.gateways = [
      gateway('infra', 'web', 'contour', [], PENDING_STATUS),
      gateway('infra', 'internal', 'contour', [])
    ]
    const p = problemFor(ref('web'), noStatus(mode), world, mode)
    expect(p?.title).toBe(
      'Contour (projectcontour.io/gateway-controller) runs but does not serve Gateway infra/web'
    )
    expect(p?.evidence).toContain(
      'Gateway infra/internal of the same class is Accepted or Programmed: the controller runs.'
    )
    expect(p?.remediation).toContain(
      "Contour's static provisioning serves only the Gateway named in its configuration"
    )
    expect(p?.remediation).not.toMatch(/install|start/)
  })

  it('reports a class its controller rejected', () => {
    const world = baseWorld()
    world.gatewayClasses = [
      gatewayClass('istio', 'istio.io/gateway-controller', {
        conditions: [
          {
            type: 'Accepted',
            status: 'False',
            reason: 'InvalidParameters',
            message: 'parametersRef not found'
          }
        ]
      })
    ]
    const p = problemFor(ref('web'), noStatus(mode), world, mode)
    expect(p?.title).toBe('GatewayClass istio is not Accepted by istio.io/gateway-controller')
    expect(p?.evidence).toContain(
      'GatewayClass istio is not Accepted: Accepted=False (InvalidParameters): parametersRef not found.'
    )
  })

  it('says the controller serves the Gateway but wrote nothing for the Route, and names other controllers', () => {
    const p = problemFor(ref('web'), noStatus(mode), baseWorld(), mode, {
      otherControllers: [{ controllerName: 'kuadrant.io/policy-controller', conditions: [] }]
    })
    expect(p?.title).toBe(
      'Istio (istio.io/gateway-controller) wrote no status for this HTTPRoute on Gateway infra/web'
    )
    expect(p?.evidence).toContain('GatewayClass istio is Accepted by istio.io/gateway-controller.')
    expect(p?.evidence).toContain(
      'Kuadrant (policy controller) (kuadrant.io/policy-controller) wrote an entry for this parentRef, but it does not own the parent.'
    )
  })

  it('catches a Service parent without group: ""', () => {
    const parentRef: ParentRef = {
      group: 'gateway.networking.k8s.io',
      kind: 'Service',
      namespace: 'shop',
      name: 'cart'
    }
    const r = route({ parentRefs: [parentRef] })
    const p = problemFor(parentRef, noStatus(mode), baseWorld(), mode, {}, r)
    expect(p?.title).toBe('parentRef to Service shop/cart lacks group: ""')
    expect(fixText(p)).toContain(
      '- group: ""\n      kind: Service\n      namespace: shop\n      name: cart'
    )
  })

  it('asks for a mesh when a core Service parent has no status', () => {
    const parentRef: ParentRef = { group: '', kind: 'Service', namespace: 'shop', name: 'cart' }
    const p = problemFor(parentRef, noStatus(mode), baseWorld(), mode)
    expect(p?.evidence).toContain('Service shop/cart exists.')
    expect(p?.remediation).toContain('mesh')
  })

  it('says Gateways could not be read, and claims no owner and no silence', () => {
    const world = {
      ...baseWorld(),
      gateways: [],
      unreadable: ['gateways in namespace infra: forbidden (list)']
    }
    const p = problemFor(ref('web'), noStatus(mode), world, mode)
    expect(p?.evidence).toEqual([
      'Could not read gateways in namespace infra: forbidden (list).',
      'Without them the owner of Gateway infra/web is unknown, so only status entries with an Accepted condition were judged, and none names this parentRef.'
    ])
    expect(p?.title).toBe(
      'Which controller owns Gateway infra/web, and whether it reported on this parentRef, cannot be told without the Gateways and GatewayClasses'
    )
    expect(p?.remediation).toBe(
      'Let route-gate read the Gateways and GatewayClasses (get and list on gateways,gatewayclasses) so it can tell which controller owns Gateway infra/web.'
    )
  })

  it('on a dump without Gateways says the dump cannot tell, and which objects to add', () => {
    const world: World = { ...baseWorld(), gateways: [], gatewayClasses: [], partial: true }
    const p = problemFor(ref('web'), noStatus(mode), world, mode, {
      otherControllers: [{ controllerName: 'example.com/policy', conditions: [] }]
    })
    expect(p?.title).not.toMatch(/no controller|does not own/i)
    expect(p?.remediation).toBe(
      'Add the Gateways and GatewayClasses to the dump (kubectl get gateways,gatewayclasses -A -o yaml) and judge it again.'
    )
    expect(p?.evidence).toContain(
      'example.com/policy wrote an entry for this parentRef without an Accepted condition; it was not judged.'
    )
    expect(p?.evidence?.join(' ')).not.toContain('does not own')
  })

  it('on a dump with Gateways but no GatewayClasses asks for the classes', () => {
    const world: World = { ...baseWorld(), gatewayClasses: [], partial: true }
    const p = problemFor(ref('web'), noStatus(mode), world, mode)
    expect(p?.remediation).toBe(
      'Add the GatewayClasses to the dump (kubectl get gatewayclasses -A -o yaml) and judge it again.'
    )
  })
})

describe.each(MODES)('StaleStatus (%s mode)', (mode) => {
  const CONTOUR = 'projectcontour.io/gateway-controller'
  const stale = (): Finding => ({
    condition: 'Accepted',
    reason: 'StaleStatus',
    severity: severityIn(mode),
    controllerName: CONTOUR,
    generation: 5,
    observedGeneration: 3,
    lastTransitionTime: '2025-03-01T10:00:00Z'
  })
  const world = (): World => baseWorld('contour', CONTOUR)

  it('says how many generations behind, and that the age of the transition bounds the lag from above', () => {
    const verdict = routeVerdict(route({}), [
      { parentRef: ref('web'), finding: stale(), controllerName: CONTOUR, verdict: verdictIn(mode) }
    ])
    const p = explainRoute(verdict, world(), { now: new Date('2025-03-01T10:42:00Z') }).parents[0]
      ?.problems[0]
    expect(p?.title).toBe('Status is 2 generations behind the Route (observed 3, current 5)')
    expect(p?.evidence).toEqual([
      'Accepted was written for generation 3; the Route is at generation 5 (2 generations behind).',
      'Accepted last changed at 2025-03-01T10:00:00Z, 42m 0s before now.',
      'The spec changed after that, so Contour (projectcontour.io/gateway-controller) has been behind for at most 42m 0s.'
    ])
    expect(p?.remediation).toBe(
      'Contour (projectcontour.io/gateway-controller) has not processed generation 5 of this Route: it is lagging or stopped. Check that its pods run and read their logs for this Route; a Route it cannot parse can also stall it.'
    )
    expect(p?.remediation).not.toContain('at least')
  })

  it('measures from the newest timestamp of a dump, and says so', () => {
    const verdict = routeVerdict(route({}), [
      { parentRef: ref('web'), finding: stale(), controllerName: CONTOUR, verdict: verdictIn(mode) }
    ])
    const p = explainRoute(verdict, world(), {
      now: new Date('2025-03-01T13:05:00Z'),
      clock: 'dump'
    }).parents[0]?.problems[0]
    expect(p?.evidence).toContain(
      'Accepted last changed at 2025-03-01T10:00:00Z, 3h 5m before the newest timestamp in the dump (2025-03-01T13:05:00.000Z).'
    )
  })

  it('leaves durations out without a clock', () => {
    const p = explainRoute(
      routeVerdict(route({}), [{ parentRef: ref('web'), finding: stale() }]),
      world()
    ).parents[0]?.problems[0]
    expect(p?.evidence).toContain('Accepted last changed at 2025-03-01T10:00:00Z.')
    expect(p?.evidence?.join(' ')).not.toContain('at most')
  })

  it('calls the controller running when it wrote current status for another parent of the Route', () => {
    const verdict = routeVerdict(route({}), [
      {
        parentRef: ref('web'),
        finding: stale(),
        controllerName: CONTOUR,
        verdict: verdictIn(mode)
      },
      {
        parentRef: ref('internal'),
        controllerName: CONTOUR,
        conditions: [
          {
            type: 'Accepted',
            status: 'True',
            observedGeneration: 5,
            lastTransitionTime: '2025-03-01T10:30:00Z',
            fresh: true
          }
        ]
      }
    ])
    const p = explainRoute(verdict, world()).parents[0]?.problems[0]
    expect(p?.remediation).toBe(
      'Contour (projectcontour.io/gateway-controller) is running (it wrote current status for parent infra/internal of this Route) but has not processed generation 5 of this Route: it may not have reached it yet, or it cannot process it. Read its logs for this Route.'
    )
    expect(p?.remediation).not.toContain('stopped')
  })

  it('calls the controller running when it wrote current status for another Route since', () => {
    const verdict = routeVerdict(route({}), [
      { parentRef: ref('web'), finding: stale(), controllerName: CONTOUR, verdict: verdictIn(mode) }
    ])
    const other = (at: string) => ({
      ...route({}, 'HTTPRoute', 'other', 7),
      status: {
        parents: [
          {
            parentRef: { name: 'web', namespace: 'infra' },
            controllerName: CONTOUR,
            conditions: [
              { type: 'Accepted', status: 'True', observedGeneration: 7, lastTransitionTime: at }
            ]
          }
        ]
      }
    })
    const fresh = explainRoute(verdict, world(), { routes: [other('2025-03-01T11:00:00Z')] })
      .parents[0]?.problems[0]
    expect(fresh?.remediation).toContain(
      'is running (it wrote current status for HTTPRoute shop/other)'
    )
    expect(fresh?.evidence).toContain(
      'Contour (projectcontour.io/gateway-controller) wrote status for the current spec of HTTPRoute shop/other.'
    )
    // current, but older than this Route's stale status: no proof it still runs
    const old = explainRoute(verdict, world(), { routes: [other('2025-02-01T11:00:00Z')] })
      .parents[0]?.problems[0]
    expect(old?.remediation).toContain('lagging or stopped')
  })
})

describe.each(MODES)('parent health as context (%s mode)', (mode) => {
  const unhealthy = (): World => {
    const world = baseWorld()
    world.gateways = [
      gateway(
        'infra',
        'web',
        'istio',
        [
          { name: 'http', port: 80, protocol: 'HTTP' },
          { name: 'http-alt', port: 80, protocol: 'HTTP' }
        ],
        {
          conditions: [
            {
              type: 'Accepted',
              status: 'True',
              reason: 'ListenersNotValid',
              observedGeneration: 1
            },
            {
              type: 'Programmed',
              status: 'False',
              reason: 'Invalid',
              message: 'Envoy replicas unavailable',
              observedGeneration: 1
            }
          ],
          listeners: [
            {
              name: 'http',
              attachedRoutes: 1,
              conditions: [
                {
                  type: 'Conflicted',
                  status: 'True',
                  reason: 'HostnameConflict',
                  message: 'All listeners for a given port must use a unique hostname'
                }
              ]
            },
            {
              name: 'http-alt',
              attachedRoutes: 0,
              conditions: [
                {
                  type: 'Accepted',
                  status: 'False',
                  reason: 'PortUnavailable',
                  message: 'Cannot find entryPoint for Gateway: no matching entryPoint for port 80'
                }
              ]
            }
          ]
        }
      )
    ]
    world.gatewayClasses = [
      gatewayClass('istio', 'istio.io/gateway-controller', {
        conditions: [
          {
            type: 'Accepted',
            status: 'False',
            reason: 'UnsupportedVersion',
            message: 'bundle v0.8 unsupported'
          }
        ]
      })
    ]
    return world
  }

  it('does not flag a class left Unknown (Contour static mode) while its controller accepts the Gateway', () => {
    const pending = {
      conditions: [
        {
          type: 'Accepted',
          status: 'Unknown',
          reason: 'Pending',
          message: 'Waiting for controller'
        }
      ]
    }
    const world = baseWorld()
    world.gatewayClasses = [gatewayClass('istio', 'istio.io/gateway-controller', pending)]
    const fine = explainRoute(routeVerdict(route({}), [{ parentRef: ref('web') }]), world)
    expect(fine.parents[0]?.problems).toEqual([])

    world.gateways = [gateway('infra', 'web', 'istio', [], { conditions: [] })]
    const unsure = explainRoute(routeVerdict(route({}), [{ parentRef: ref('web') }]), world)
    expect(unsure.parents[0]?.problems[0]?.evidence).toEqual([
      'GatewayClass istio is not Accepted: Accepted=Unknown (Pending): Waiting for controller.'
    ])
  })

  it('adds a warning on a parent that looks fine when its Gateway, listeners or class are not', () => {
    const result = explainRoute(routeVerdict(route({}), [{ parentRef: ref('web') }]), unhealthy())
    const [problem] = result.parents[0]?.problems ?? []
    expect(problem?.reason).toBe('ParentUnhealthy')
    expect(problem?.severity).toBe('warning')
    expect(problem?.evidence).toEqual([
      'Gateway infra/web is not Programmed: Programmed=False (Invalid): Envoy replicas unavailable.',
      'Listener http of Gateway infra/web is Conflicted: Conflicted=True (HostnameConflict): All listeners for a given port must use a unique hostname.',
      'Listener http-alt of Gateway infra/web is not Accepted: Accepted=False (PortUnavailable): Cannot find entryPoint for Gateway: no matching entryPoint for port 80.',
      'GatewayClass istio is not Accepted: Accepted=False (UnsupportedVersion): bundle v0.8 unsupported.'
    ])
  })

  it('appends the same facts to the first problem of a failing parent, and only for the listeners it selects', () => {
    const finding: Finding = {
      condition: 'ResolvedRefs',
      reason: 'BackendNotFound',
      severity: severityIn(mode)
    }
    const result = explainRoute(
      routeVerdict(route({}), [{ parentRef: ref('web', { sectionName: 'http-alt' }), finding }]),
      unhealthy()
    )
    const problems = result.parents[0]?.problems ?? []
    expect(problems).toHaveLength(1)
    expect(problems[0]?.evidence).toContain(
      'Gateway infra/web is not Programmed: Programmed=False (Invalid): Envoy replicas unavailable.'
    )
    expect(problems[0]?.evidence?.join(' ')).not.toContain('Listener http of')
  })

  it('adds nothing to a healthy ready parent', () => {
    const result = explainRoute(routeVerdict(route({}), [{ parentRef: ref('web') }]), baseWorld())
    expect(result.parents[0]?.problems).toEqual([])
  })
})
