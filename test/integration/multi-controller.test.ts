// One Route, three controllers: Contour, Envoy Gateway and Traefik each own one parent of the same
// HTTPRoute and write their own entries. The gate is ready only when every owner says so, names the
// one that does not, and never lets an entry from a controller that does not own the parent decide.
import { describe, expect, it, onTestFinished } from 'vitest'
import type { Report } from '../../src/model/types.ts'
import { gate, logOf, reportOf } from '../helpers/gate.ts'
import {
  applyYaml,
  controller,
  createService,
  gatewayParentRef,
  getRoute,
  kube,
  testHostname,
  testNamespace,
  waitForRouteCondition,
  writeRouteStatus
} from '../helpers/cluster.ts'
import type { ControllerId, RouteRead } from '../helpers/cluster.ts'

const ALL: ControllerId[] = ['contour', 'envoy-gateway', 'traefik']

/**
 * A Route with parents on both Contour's and Traefik's Gateways never settles: Traefik writes
 * entries for every parentRef of a Route attached to its Gateway, Contour removes the one for its
 * own Gateway, Traefik writes it again, about once a second for as long as the Route exists. The
 * Route is deleted after the test (namespaces are never reclaimed here) so runs do not pile them up.
 */
async function applyRoute(ns: string, text: string): Promise<void> {
  await applyYaml(text, ns)
  onTestFinished(async () => {
    await kube().custom.deleteNamespacedCustomObject({
      group: 'gateway.networking.k8s.io',
      version: 'v1',
      namespace: ns,
      plural: 'httproutes',
      name: 'web'
    })
  })
}

/** An HTTPRoute with one parentRef per Gateway of `sections` (controller → listener). */
function route(ns: string, sections: Partial<Record<ControllerId, string>>): string {
  const refs = Object.entries(sections).map(([id, section]) =>
    JSON.stringify(gatewayParentRef(id as ControllerId, section))
  )
  return `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web}
spec:
  parentRefs: [${refs.join(', ')}]
  hostnames: [${testHostname(ns)}]
  rules: [{backendRefs: [{name: web, port: 8080}]}]
`
}

function parentOf(report: Report, id: ControllerId) {
  return report.routes[0]?.parents.find((p) => p.parentRef.name === controller(id).gateway.name)
}

/** Every controller has written an entry for the Route's current generation. */
function allWrote(generation: number) {
  return (r: RouteRead): boolean =>
    ALL.every((id) =>
      (r.status?.parents ?? []).some(
        (p) =>
          p.controllerName === controller(id).controllerName &&
          p.conditions.some((c) => c.type === 'Accepted' && c.observedGeneration === generation)
      )
    )
}

describe('one HTTPRoute attached to the Gateways of three controllers', () => {
  it('is ready only when all three owners say ready, each entry written by its own controller', async () => {
    const ns = await testNamespace('multi-ready')
    await createService(ns, 'web', [{ port: 8080, name: 'http' }], { endpoints: true })
    await applyRoute(ns, route(ns, { contour: 'http', 'envoy-gateway': 'http', traefik: 'http' }))
    const result = await gate({ routes: `httproute/${ns}/web`, timeout: '60s' })

    expect(result.code, logOf(result)).toBe(0)
    const report = await reportOf(result)
    expect(report.routes[0]?.parents).toHaveLength(3)
    for (const id of ALL) {
      const parent = parentOf(report, id)
      expect(parent?.verdict, id).toBe('ready')
      expect(parent?.controllerName, id).toBe(controller(id).controllerName)
    }
  })

  it.each(ALL)(
    'fails naming the parent %s refuses and its reason, shows the other two ready, and turns ready once fixed while the gate waits',
    async (failing) => {
      const ns = await testNamespace('multi-fail')
      await createService(ns, 'web', [{ port: 8080, name: 'http' }], { endpoints: true })
      const sections = (listener: string) =>
        Object.fromEntries(ALL.map((id) => [id, id === failing ? listener : 'http']))
      // same-ns admits only Routes from the Gateway's own namespace
      await applyRoute(ns, route(ns, sections('same-ns')))
      const refused = await waitForRouteCondition('HTTPRoute', ns, 'web', allWrote(1))
      const entryFor = (writer: ControllerId) =>
        refused.status?.parents.find(
          (p) =>
            p.controllerName === controller(writer).controllerName &&
            p.parentRef.name === controller(failing).gateway.name
        )
      const reason = entryFor(failing)?.conditions.find((c) => c.status === 'False')?.reason
      // Traefik v3.6 also writes its own entries for parentRefs to the other controllers' Gateways
      // (judging their listeners as if it served them; Contour keeps removing the one for its
      // Gateway): real foreign entries, which never decide
      const byTraefikForOthers = (refused.status?.parents ?? []).filter(
        (p) =>
          p.controllerName === controller('traefik').controllerName &&
          p.parentRef.name !== controller('traefik').gateway.name
      )
      expect(byTraefikForOthers.length).toBeGreaterThan(0)

      const failed = await gate({ routes: `httproute/${ns}/web`, timeout: '6s' })
      expect(failed.code).toBe(1)
      const report = await reportOf(failed)
      const bad = parentOf(report, failing)
      expect(bad?.verdict).toBe('failed')
      expect(bad?.controllerName).toBe(controller(failing).controllerName)
      expect(reason).toBe('NotAllowedByListeners')
      expect(bad?.problems.map((p) => p.reason)).toContain(reason)
      for (const id of ALL.filter((c) => c !== failing))
        expect(parentOf(report, id)?.verdict, id).toBe('ready')
      expect(failed.summary).toContain(controller(failing).gateway.name)
      expect(failed.summary).toContain('NotAllowedByListeners')

      // the fix lands once the gate has read the refused parent, however slow its start
      let seen!: () => void
      const refusedSeen = new Promise<void>((resolve) => (seen = resolve))
      const refusedLine = `parent ${controller(failing).gateway.namespace}/${controller(failing).gateway.name}#same-ns`
      const running = gate({ routes: `httproute/${ns}/web`, timeout: '60s' }, undefined, (log) => {
        if (log.includes(refusedLine)) seen()
      })
      await Promise.race([refusedSeen, running])
      await applyYaml(route(ns, sections('http')), ns)
      const fixed = await running
      expect(fixed.code, logOf(fixed)).toBe(0)
      const after = await reportOf(fixed)
      expect(after.routes[0]?.generation).toBe(2)
      for (const id of ALL) expect(parentOf(after, id)?.verdict, id).toBe('ready')
      // the parent's label changes with its sectionName: its line under the new label ends ready
      const label = `parent ${controller(failing).gateway.namespace}/${controller(failing).gateway.name}#http`
      expect(fixed.stdout).toMatch(new RegExp(`${label} .*→ ready after`))
    }
  )
})

describe('an entry written under a controllerName that does not own the parent', () => {
  /** Adds an entry for the Traefik parent under Envoy Gateway's controllerName, keeping Traefik's. */
  async function addForeignEntry(ns: string, accepted: 'True' | 'False'): Promise<void> {
    const current = await getRoute('HTTPRoute', ns, 'web')
    const generation = current.metadata.generation
    const foreign = {
      parentRef: gatewayParentRef('traefik', 'http'),
      controllerName: controller('envoy-gateway').controllerName,
      conditions: [
        {
          type: 'Accepted',
          status: accepted,
          reason: accepted === 'True' ? 'Accepted' : 'NotAllowedByListeners',
          observedGeneration: generation
        },
        {
          type: 'ResolvedRefs',
          status: accepted,
          reason: accepted === 'True' ? 'ResolvedRefs' : 'BackendNotFound',
          observedGeneration: generation
        }
      ]
    }
    await writeRouteStatus(
      'HTTPRoute',
      ns,
      'web',
      { parents: [...(current.status?.parents ?? []), foreign] },
      { controllerName: controller('envoy-gateway').controllerName }
    )
  }

  const traefikWrote = (r: RouteRead): boolean =>
    (r.status?.parents ?? []).some((p) => p.controllerName === controller('traefik').controllerName)

  it('a failed foreign entry beside the owner’s ready one: ready', async () => {
    const ns = await testNamespace('foreign-failed')
    await createService(ns, 'web', [{ port: 8080, name: 'http' }], { endpoints: true })
    await applyYaml(route(ns, { traefik: 'http' }), ns)
    await waitForRouteCondition('HTTPRoute', ns, 'web', traefikWrote)
    await addForeignEntry(ns, 'False')

    const result = await gate({ routes: `httproute/${ns}/web`, timeout: '20s' })
    expect(result.code, logOf(result)).toBe(0)
    const report = await reportOf(result)
    expect(parentOf(report, 'traefik')).toMatchObject({
      verdict: 'ready',
      controllerName: controller('traefik').controllerName
    })
    // the foreign entry was there all along: the gate read it and let it not decide
    const stored = await getRoute('HTTPRoute', ns, 'web')
    expect(stored.status?.parents.map((p) => p.controllerName).sort()).toEqual(
      [controller('envoy-gateway').controllerName, controller('traefik').controllerName].sort()
    )
  })

  it('a ready foreign entry beside the owner’s failed one: failed with the owner’s reason', async () => {
    const ns = await testNamespace('foreign-ready')
    await applyYaml(route(ns, { traefik: 'http' }), ns)
    await waitForRouteCondition('HTTPRoute', ns, 'web', (r) =>
      JSON.stringify(r.status ?? {}).includes('BackendNotFound')
    )
    await addForeignEntry(ns, 'True')

    const result = await gate({ routes: `httproute/${ns}/web`, timeout: '6s' })
    expect(result.code).toBe(1)
    const parent = parentOf(await reportOf(result), 'traefik')
    expect(parent).toMatchObject({
      verdict: 'failed',
      controllerName: controller('traefik').controllerName
    })
    expect(parent?.problems.map((p) => p.reason)).toContain('BackendNotFound')
  })
})
