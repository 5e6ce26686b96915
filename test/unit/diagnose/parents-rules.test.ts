// The parent behind a parentRef: a missing Gateway or ListenerSet with the names that do exist, why no
// controller wrote status (NoStatus), and the parent's own health as context.
import { describe, expect, it } from 'vitest'
import {
  explainNoStatus,
  lookUpGateway,
  lookUpListenerSet,
  parentHealth
} from '../../../src/diagnose/parents.ts'
import type { KubeObject, ParentRef, World } from '../../../src/model/types.ts'
import {
  baseWorld,
  gateway,
  gatewayClass,
  listener,
  parentVerdict,
  ref,
  route
} from '../../fixtures/diagnose/world.ts'
import { fixText } from '../../helpers/fixes.ts'

const CONTOUR = 'projectcontour.io/gateway-controller'
const WHO = `Contour (${CONTOUR})`

const PENDING = {
  type: 'Accepted',
  status: 'Unknown',
  reason: 'Pending',
  message: 'Waiting for controller'
}
const CRD_DEFAULT = {
  conditions: [
    { ...PENDING, lastTransitionTime: '1970-01-01T00:00:00Z' },
    { ...PENDING, type: 'Programmed', lastTransitionTime: '1970-01-01T00:00:00Z' }
  ]
}
const condition = (type: string, status: string, reason: string, extra: object = {}) => ({
  type,
  status,
  reason,
  observedGeneration: 1,
  lastTransitionTime: '2025-01-01T00:00:00Z',
  ...extra
})

function noStatus(parentRef: ParentRef, world: World, r = route({})) {
  return explainNoStatus({
    route: r,
    world,
    finding: { reason: 'NoStatus', severity: 'error' },
    parent: parentVerdict({
      parentRef,
      finding: { reason: 'NoStatus', severity: 'error' },
      controllerName: null,
      verdict: 'failed'
    })
  })
}

/** A world with Contour's class in the given state and Gateway infra/web with the given status. */
function contourWorld(classStatus: unknown, webStatus: unknown, others: KubeObject[] = []): World {
  return {
    ...baseWorld(),
    gatewayClasses: [gatewayClass('contour', CONTOUR, classStatus)],
    gateways: [gateway('infra', 'web', 'contour', [], webStatus), ...others]
  }
}

const listenerSet = (kind: string, namespace: string, name: string): KubeObject => ({
  apiVersion:
    kind === 'XListenerSet'
      ? 'gateway.networking.x-k8s.io/v1alpha1'
      : 'gateway.networking.k8s.io/v1',
  kind,
  metadata: { name, namespace, generation: 1 },
  spec: { parentRef: { name: 'web' }, listeners: [] }
})

describe('a parent that does not exist', () => {
  it('a Gateway that cannot be read is not called missing', () => {
    const world: World = {
      ...baseWorld(),
      gateways: [],
      unreadable: ['gateways in namespace infra: forbidden (list)']
    }
    expect(lookUpGateway(ref('web'), world)).toEqual({
      diagnosis: {
        evidence: [
          'Could not read gateways in namespace infra: forbidden (list).',
          'Whether Gateway infra/web exists could not be checked.'
        ]
      }
    })
  })

  it('a missing ListenerSet: the ones of the same kind in its namespace, the same name elsewhere', () => {
    const world: World = {
      ...baseWorld(),
      listenerSets: [
        listenerSet('ListenerSet', 'infra', 'team-extra'),
        listenerSet('XListenerSet', 'infra', 'extras'),
        listenerSet('ListenerSet', 'team-a', 'extras'),
        listenerSet('ListenerSet', 'team-b', 'other')
      ]
    }
    const found = lookUpListenerSet(ref('extras', { kind: 'ListenerSet' }), world)
    expect(found).toEqual({
      diagnosis: {
        title: 'ListenerSet infra/extras named by the parentRef does not exist',
        remediation: 'Set the parentRef namespace to "team-a", or create ListenerSet infra/extras.',
        evidence: [
          'ListenerSet infra/extras does not exist.',
          'ListenerSets in namespace infra: team-extra.',
          'A ListenerSet named extras exists in namespace team-a.'
        ]
      }
    })
  })

  it('no ListenerSet read at all: says so and only offers to create it', () => {
    const found = lookUpListenerSet(ref('extras', { kind: 'ListenerSet' }), baseWorld())
    expect(found).toEqual({
      diagnosis: {
        title: 'ListenerSet infra/extras named by the parentRef does not exist',
        remediation: 'Create ListenerSet infra/extras.',
        evidence: [
          'ListenerSet infra/extras does not exist.',
          'There is no ListenerSet in namespace infra.'
        ]
      }
    })
  })

  it('names at most ten Gateways of the namespace, and the nearest name', () => {
    const world = baseWorld()
    for (let i = 1; i <= 11; i++) world.gateways.push(gateway('infra', `gw-${i}`, 'istio', []))
    const found = lookUpGateway(ref('webb'), world)
    expect('diagnosis' in found && found.diagnosis.evidence[1]).toBe(
      'Gateways in namespace infra: web, internal, gw-1, gw-2, gw-3, gw-4, gw-5, gw-6, gw-7 and gw-8.'
    )
    expect('diagnosis' in found && found.diagnosis.remediation).toBe(
      'Set the parentRef name to "web" (the nearest existing name), or create Gateway infra/webb.'
    )
  })
})

describe('NoStatus: why no controller reported on a Gateway parent', () => {
  it('the class is accepted but the Gateway still has the CRD default status: not processed yet', () => {
    const d = noStatus(
      ref('web'),
      contourWorld({ conditions: [condition('Accepted', 'True', 'Accepted')] }, CRD_DEFAULT)
    )
    expect(d.title).toBe(`${WHO} has not processed Gateway infra/web yet`)
    expect(d.remediation).toBe(
      `${WHO} accepted the class but has not reconciled Gateway infra/web: check its logs, and that it watches namespace infra.`
    )
    expect(d.evidence).toEqual([
      'Gateway infra/web exists and uses GatewayClass contour.',
      `GatewayClass contour is Accepted by ${CONTOUR}.`,
      'No controller has written status on Gateway infra/web: its conditions are still the CRD default.'
    ])
  })

  it.each([
    [
      'without observedGeneration (the reason is not Pending)',
      [{ type: 'Accepted', status: 'True', reason: 'Accepted' }]
    ],
    [
      'with observedGeneration, even on a Pending reason',
      [condition('Programmed', 'False', 'Pending')]
    ],
    [
      'on one condition while another is still the default',
      [CRD_DEFAULT.conditions[0], condition('Programmed', 'True', 'Programmed')]
    ]
  ])('status written %s counts as processed: no status for this Route', (_, conditions) => {
    const d = noStatus(
      ref('web'),
      contourWorld({ conditions: [condition('Accepted', 'True', 'Accepted')] }, { conditions }),
      route({}, 'GRPCRoute')
    )
    expect(d.title).toBe(`${WHO} wrote no status for this GRPCRoute on Gateway infra/web`)
    expect(d.evidence.at(-1)).toBe('Gateway infra/web has status written by its controller.')
    expect(d.remediation).toContain(
      'check that it watches namespace shop, that it supports GRPCRoute'
    )
  })

  it('a class the controller rejected: fix the class as its condition says', () => {
    const rejected = condition('Accepted', 'False', 'InvalidParameters', {
      message: 'ContourDeployment "x" not found'
    })
    const d = noStatus(ref('web'), contourWorld({ conditions: [rejected] }, CRD_DEFAULT))
    expect(d.evidence.at(-1)).toBe(
      'GatewayClass contour is not Accepted: Accepted=False (InvalidParameters): ContourDeployment "x" not found.'
    )
    expect(d.remediation).toBe(
      'Fix GatewayClass contour as its Accepted condition says (e.g. its parametersRef), then the controller will serve Gateway infra/web.'
    )
  })

  it('a class without any Accepted condition and a Gateway with status: says so, without "either"', () => {
    const d = noStatus(
      ref('web'),
      contourWorld({}, { conditions: [condition('Programmed', 'False', 'Invalid')] })
    )
    expect(d.title).toBe(`No controller has accepted GatewayClass contour (${CONTOUR})`)
    expect(d.evidence).toEqual([
      'Gateway infra/web exists and uses GatewayClass contour.',
      `GatewayClass contour names controller ${CONTOUR} and has not been accepted by it (no Accepted condition).`
    ])
  })

  it('a class left Pending while its controller accepted this very Gateway: the controller runs and serves it', () => {
    // Contour's static provisioning never writes class status but does accept the Gateway it serves
    const d = noStatus(
      ref('web'),
      contourWorld(
        { conditions: [PENDING] },
        {
          conditions: [
            condition('Accepted', 'True', 'Accepted'),
            condition('Programmed', 'True', 'Programmed')
          ]
        }
      )
    )
    expect(d.title).toBe(`${WHO} wrote no status for this HTTPRoute on Gateway infra/web`)
    expect(d.remediation).not.toMatch(/install|start/)
    expect(d.evidence).toContain('Gateway infra/web has status written by its controller.')
  })

  it('which other Gateways show that the controller runs: same class, status written, Accepted or Programmed True', () => {
    const sibling = (name: string, className: string, status: unknown) =>
      gateway('infra', name, className, [], status)
    const notServing = [
      sibling('other-class', 'istio', undefined),
      sibling('default-status', 'contour', CRD_DEFAULT),
      sibling('rejected', 'contour', {
        conditions: [
          condition('Accepted', 'False', 'Invalid'),
          condition('ResolvedRefs', 'True', 'ResolvedRefs')
        ]
      })
    ]
    const none = noStatus(
      ref('web'),
      contourWorld({ conditions: [PENDING] }, CRD_DEFAULT, notServing)
    )
    expect(none.title).toBe(`No controller has accepted GatewayClass contour (${CONTOUR})`)
    expect(none.evidence.at(-1)).toBe(
      'No controller has written status on Gateway infra/web either.'
    )

    const programmed = [
      sibling('a', 'contour', {
        conditions: [
          condition('Accepted', 'False', 'Pending'),
          condition('Programmed', 'True', 'Programmed')
        ]
      }),
      ...['b', 'c', 'd', 'e', 'f'].map((n) => sibling(n, 'contour', undefined))
    ]
    const runs = noStatus(
      ref('web'),
      contourWorld({ conditions: [PENDING] }, CRD_DEFAULT, programmed)
    )
    expect(runs.title).toBe(`${WHO} runs but does not serve Gateway infra/web`)
    expect(runs.evidence.at(-1)).toBe(
      'Gateways infra/a, infra/b, infra/c, infra/d and infra/e of the same class are Accepted or Programmed: the controller runs.'
    )
    // Accepted without an address yet (Programmed False) still shows the controller runs
    const acceptedOnly = noStatus(
      ref('web'),
      contourWorld({ conditions: [PENDING] }, CRD_DEFAULT, [
        sibling('accepted', 'contour', {
          conditions: [
            condition('Accepted', 'True', 'Accepted'),
            condition('Programmed', 'False', 'AddressNotAssigned')
          ]
        })
      ])
    )
    expect(acceptedOnly.title).toBe(`${WHO} runs but does not serve Gateway infra/web`)
    expect(runs.remediation).toMatch(
      new RegExp(
        `^${WHO.replace(/[()./]/g, '\\$&')} serves infra/a, infra/b, infra/c, infra/d and infra/e of class contour but has not taken Gateway infra/web\\.`
      )
    )
  })

  it('the GatewayClass does not exist: lists the classes that do, or says none is installed', () => {
    const world: World = { ...baseWorld(), gateways: [gateway('infra', 'web', 'nginx', [])] }
    const d = noStatus(ref('web'), world)
    expect(d.evidence).toEqual([
      'Gateway infra/web exists and uses GatewayClass nginx.',
      'GatewayClass nginx does not exist.',
      'GatewayClasses: istio.'
    ])
    expect(d.remediation).toBe(
      'Install the Gateway controller that provides class nginx, or set spec.gatewayClassName of Gateway infra/web to an existing class.'
    )
    const empty = noStatus(ref('web'), { ...world, gatewayClasses: [] })
    expect(empty.evidence.at(-1)).toBe(
      'No GatewayClass exists: no Gateway controller is installed.'
    )
  })

  it('a Gateway parentRef in another API group: no controller serves it', () => {
    const d = noStatus(ref('web', { group: 'networking.k8s.io' }), {
      ...baseWorld(),
      gateways: [],
      unreadable: ['gateways in namespace infra: forbidden (list)']
    })
    expect(d).toEqual({
      title: 'parentRef group "networking.k8s.io" is not the Gateway API group',
      remediation:
        'Set the parentRef group to gateway.networking.k8s.io (or leave it out) for a Gateway parent.',
      evidence: [
        'The parentRef names kind Gateway in group "networking.k8s.io", which no Gateway API controller serves.'
      ]
    })
  })

  it('a dump that also lists what could not be read asks route-gate to read, not the dump to hold more', () => {
    const world: World = {
      ...baseWorld(),
      gateways: [],
      partial: true,
      unreadable: ['gateways in all namespaces: forbidden (list)']
    }
    expect(noStatus(ref('web'), world).remediation).toMatch(
      /^Let route-gate read the Gateways and GatewayClasses/
    )
  })

  it('a dump without GatewayClasses says the classes could not be checked', () => {
    const world: World = { ...baseWorld(), gatewayClasses: [], partial: true }
    expect(noStatus(ref('web'), world).evidence[0]).toBe(
      'The source holds no GatewayClasses, so they could not be checked.'
    )
  })

  it('a ListenerSet parent gets no Gateway diagnosis; without a parent there is nothing to say', () => {
    expect(noStatus(ref('extras', { kind: 'ListenerSet' }), baseWorld())).toEqual({ evidence: [] })
    expect(
      explainNoStatus({
        route: route({}),
        world: baseWorld(),
        finding: { reason: 'NoStatus', severity: 'warning' }
      })
    ).toEqual({ evidence: [] })
  })
})

describe('NoStatus on a Service parent (GAMMA)', () => {
  const cart: ParentRef = { group: '', kind: 'Service', namespace: 'shop', name: 'cart' }

  it('asks for a mesh even when Gateways cannot be read', () => {
    const d = noStatus(cart, {
      ...baseWorld(),
      gateways: [],
      unreadable: ['gateways in all namespaces: forbidden (list)']
    })
    expect(d.title).toBe('No mesh controller reported on Service parent shop/cart')
    expect(d.evidence).toEqual([
      'Service shop/cart exists.',
      'No mesh controller has written status for this Service parent.'
    ])
    expect(d.remediation).toContain('namespace shop is part of the mesh')
  })

  it('a Service parent that does not exist is named missing, with the nearest Service', () => {
    const d = noStatus({ ...cart, name: 'carts' }, baseWorld())
    expect(d.title).toBe('Service shop/carts named by the parentRef does not exist')
    expect(d.remediation).toBe(
      'Set the parentRef name to "cart" (the nearest existing name), or create Service shop/carts.'
    )
  })

  it('Services that cannot be read: says so instead of claiming it exists', () => {
    const d = noStatus(cart, {
      ...baseWorld(),
      services: [],
      unreadable: ['services in namespace shop: forbidden (list)']
    })
    expect(d.evidence).toEqual([
      'Could not read services in namespace shop: forbidden (list).',
      'No mesh controller has written status for this Service parent.'
    ])
  })

  it('a Service parentRef without group: "" gets the group and the YAML that fixes it', () => {
    const written = { ...cart, group: 'gateway.networking.k8s.io' }
    const d = noStatus(written, baseWorld(), route({ parentRefs: [written] }))
    expect(d.evidence).toEqual([
      'The parentRef names kind Service in group "gateway.networking.k8s.io"; a Service parent needs the core group, written as group: "".'
    ])
    expect(d.remediation).toMatch(/^Set group: "" in the parentRef/)
    // the Route as it should read: the parentRef in the core group, nothing else changed
    expect(d.fixes?.[0]?.action).toBe('patch')
    const spec = d.fixes?.[0]?.object?.spec as { parentRefs: unknown[] }
    expect(spec.parentRefs).toEqual([{ ...cart, group: '' }])
    expect(fixText(d)).toContain('  parentRefs:\n    - group: ""\n      kind: Service\n')
  })
})

describe('parentHealth', () => {
  /** Gateway infra/web with one HTTP listener, its status conditions and its listener's. */
  const web = (
    conditions: ReturnType<typeof condition>[],
    listenerConditions: ReturnType<typeof condition>[],
    attachedRoutes: number
  ) =>
    gateway('infra', 'web', 'istio', [listener('http', 80, 'HTTP')], {
      conditions,
      listeners: [
        {
          name: 'http',
          attachedRoutes,
          supportedKinds: [{ kind: 'HTTPRoute' }],
          conditions: listenerConditions
        }
      ]
    })

  const unhealthy = (): World => ({
    ...baseWorld(),
    gateways: [
      web(
        [
          condition('Accepted', 'False', 'InvalidParameters', { message: 'bad parametersRef' }),
          condition('Programmed', 'True', 'Programmed')
        ],
        [
          condition('Accepted', 'False', 'PortUnavailable', { message: 'port 80 in use' }),
          condition('Programmed', 'False', 'Invalid')
        ],
        0
      )
    ]
  })

  it('says the Gateway and its listener are not Accepted, and leaves the accepted class out', () => {
    expect(parentHealth(ref('web'), unhealthy())).toEqual([
      'Gateway infra/web is not Accepted: Accepted=False (InvalidParameters): bad parametersRef.',
      'Listener http of Gateway infra/web is not Accepted: Accepted=False (PortUnavailable): port 80 in use.',
      'Listener http of Gateway infra/web is not Programmed: Programmed=False (Invalid).'
    ])
  })

  it('only for Gateway parents of the Gateway API group', () => {
    expect(
      parentHealth({ group: '', kind: 'Service', namespace: 'infra', name: 'web' }, unhealthy())
    ).toEqual([])
    expect(parentHealth(ref('web', { group: 'example.com' }), unhealthy())).toEqual([])
  })

  it('nothing for a Gateway whose listeners all report True', () => {
    const world = baseWorld()
    world.gateways = [
      web(
        [condition('Accepted', 'True', 'Accepted'), condition('Programmed', 'True', 'Programmed')],
        [
          condition('Accepted', 'True', 'Accepted'),
          condition('Programmed', 'True', 'Programmed'),
          condition('ResolvedRefs', 'True', 'ResolvedRefs')
        ],
        1
      )
    ]
    expect(parentHealth(ref('web'), world)).toEqual([])
  })
})
