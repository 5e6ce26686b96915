// The prediction's yardstick on the real control plane: dump the cluster, predict a set of Routes
// with every failure shape predict decides, apply them, and compare with what Contour, Envoy Gateway
// and Traefik write. A false block (predicted failed where the controller wrote ready) is the one
// outcome predict must never have; the agreement is printed for the reader.
import { mkdtemp, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { stringify } from 'yaml'
import { afterAll, describe, expect, it } from 'vitest'
import type { PredictReport } from '../../src/model/types.ts'
import { runCli } from '../helpers/action.ts'
import {
  applyYaml,
  clusterEnv,
  controller,
  createService,
  getRoute,
  kube,
  testNamespace,
  waitForRouteCondition,
  type ControllerId,
  type RouteRead
} from '../helpers/cluster.ts'
import { expectValidReport } from '../helpers/schema.ts'

const G = 'gateway.networking.k8s.io'
const CONTROLLERS: ControllerId[] = ['contour', 'envoy-gateway', 'traefik']

interface Case {
  name: string
  /** where the Route lives: the app namespace, or the Gateway's own (for the Same listener) */
  home: 'app' | 'gateway'
  parentRef?: Record<string, unknown>
  hostnames?: string[]
  backendRefs: Record<string, unknown>[]
  /** no controller writes status for it: the check waits for none */
  silent?: boolean
  /** two Routes sharing a hostname and match: Contour refuses one, and predict leaves it unknown */
  contested?: boolean
  /** the rule's matches (default: the CRD's, every path) */
  matches?: Record<string, unknown>[]
}

/** Every shape predict decides, against one controller's Gateway (listeners: see test/cluster/fixtures.ts). */
function cases(id: ControllerId, appNs: string, otherNs: string): Case[] {
  const gw = controller(id).gateway
  const ref = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    group: G,
    kind: 'Gateway',
    namespace: gw.namespace,
    name: gw.name,
    ...extra
  })
  const web = { name: 'web', port: 8080 }
  // a hostname of its own per Route: Routes sharing one on a Gateway conflict on Contour
  const own = (name: string): string[] => [`${id}-${name}.${appNs}.example.com`]
  const shape = (list: Case[]): Case[] =>
    list.map((c) => (c.hostnames || c.home === 'gateway' ? c : { ...c, hostnames: own(c.name) }))
  const shared = [`${id}-shared.${appNs}.example.com`]
  const held = heldHostnames(id, appNs)
  return shape([
    // the Route "held" (in the dump, older) holds every path of this hostname: Contour refuses these
    { name: 'takes-held', home: 'app', parentRef: ref(), hostnames: held, backendRefs: [web] },
    {
      name: 'beside-held',
      home: 'app',
      parentRef: ref(),
      hostnames: held,
      backendRefs: [web],
      matches: [{ path: { type: 'PathPrefix', value: '/api' } }]
    },
    { name: 'ready', home: 'app', parentRef: ref({ sectionName: 'http' }), backendRefs: [web] },
    {
      name: 'by-port',
      home: 'app',
      parentRef: ref({ port: listenerPort(id, 'http') }),
      backendRefs: [web]
    },
    {
      name: 'no-section',
      home: 'app',
      parentRef: ref({ sectionName: 'nosuch' }),
      backendRefs: [web]
    },
    { name: 'no-port', home: 'app', parentRef: ref({ port: 4 }), backendRefs: [web] },
    {
      name: 'same-ns',
      home: 'app',
      parentRef: ref({ sectionName: 'same-ns' }),
      backendRefs: [web]
    },
    { name: 'tcp-only', home: 'app', parentRef: ref({ sectionName: 'tcp' }), backendRefs: [web] },
    {
      name: 'hostname',
      home: 'gateway',
      parentRef: ref({ sectionName: 'same-ns' }),
      hostnames: ['elsewhere.example.org'],
      backendRefs: [{ ...web, namespace: appNs }]
    },
    {
      name: 'same-host',
      home: 'gateway',
      parentRef: ref({ sectionName: 'same-ns' }),
      hostnames: ['same.example.com'],
      backendRefs: [{ ...web, namespace: appNs }]
    },
    {
      name: 'no-service',
      home: 'app',
      parentRef: ref(),
      backendRefs: [{ name: 'nosuch', port: 8080 }]
    },
    {
      name: 'wrong-port',
      home: 'app',
      parentRef: ref(),
      backendRefs: [{ name: 'web', port: 9999 }]
    },
    {
      name: 'no-grant',
      home: 'app',
      parentRef: ref({ sectionName: 'http' }),
      backendRefs: [{ name: 'web', port: 8080, namespace: otherNs }]
    },
    {
      name: 'bad-kind',
      home: 'app',
      parentRef: ref({ sectionName: 'http' }),
      backendRefs: [{ group: '', kind: 'ConfigMap', name: 'web' }]
    },
    {
      name: 'no-gateway',
      home: 'app',
      parentRef: { group: G, kind: 'Gateway', namespace: gw.namespace, name: `${gw.name}-nosuch` },
      backendRefs: [web],
      silent: true
    },
    { name: 'no-parents', home: 'app', backendRefs: [web], silent: true },
    {
      name: 'first',
      home: 'app',
      parentRef: ref(),
      hostnames: shared,
      backendRefs: [web],
      contested: true
    },
    {
      name: 'second',
      home: 'app',
      parentRef: ref(),
      hostnames: shared,
      backendRefs: [web],
      contested: true
    }
  ])
}

const heldHostnames = (id: ControllerId, appNs: string): string[] => [
  `${id}-held.${appNs}.example.com`
]

/** The Route each controller's cases find in the dump, created before it: it holds its hostname's "/". */
function heldRoute(id: ControllerId, appNs: string): Record<string, unknown> {
  const gw = controller(id).gateway
  const parentRef = { group: G, kind: 'Gateway', namespace: gw.namespace, name: gw.name }
  const c: Case = {
    name: 'held',
    home: 'app',
    parentRef,
    hostnames: heldHostnames(id, appNs),
    backendRefs: [{ name: 'web', port: 8080 }]
  }
  return routeObject(c, id, appNs)
}

function listenerPort(id: ControllerId, name: string): number {
  const listener = controller(id).listeners.find((l) => l.name === name)
  if (!listener) throw new Error(`${id} has no listener ${name}`)
  return listener.port
}

function routeObject(c: Case, id: ControllerId, ns: string): Record<string, unknown> {
  return {
    apiVersion: `${G}/v1`,
    kind: 'HTTPRoute',
    metadata: { name: `${id}-${c.name}`, namespace: ns },
    spec: {
      ...(c.parentRef ? { parentRefs: [c.parentRef] } : {}),
      ...(c.hostnames ? { hostnames: c.hostnames } : {}),
      rules: [{ ...(c.matches ? { matches: c.matches } : {}), backendRefs: c.backendRefs }]
    }
  }
}

type Outcome = 'ready' | 'failed' | 'unknown' | 'pending' | 'no status'

interface Row {
  controller: ControllerId
  route: string
  contested: boolean
  predicted: Outcome
  predictedReason?: string
  written: Outcome
  writtenReason?: string
}

/** What the controller wrote for the Route's one parent: ready, failed with its reason, or nothing. */
function written(route: RouteRead): { outcome: Outcome; reason?: string } {
  const entry = route.status?.parents[0]
  if (!entry) return { outcome: 'no status' }
  const accepted = entry.conditions.find((c) => c.type === 'Accepted')
  const resolved = entry.conditions.find((c) => c.type === 'ResolvedRefs')
  if (accepted?.status === 'True' && resolved?.status === 'True') return { outcome: 'ready' }
  const failing = [accepted, resolved].find((c) => c !== undefined && c.status !== 'True')
  return { outcome: 'failed', reason: failing?.reason }
}

const fresh = (route: RouteRead): boolean =>
  (route.status?.parents ?? []).length > 0 &&
  route.status!.parents.every((p) =>
    p.conditions.some(
      (c) =>
        (c.type === 'Accepted' || c.type === 'ResolvedRefs') &&
        (c as { observedGeneration?: number }).observedGeneration === route.metadata?.generation
    )
  )

const created: { ns: string; name: string }[] = []

afterAll(async () => {
  // no controller-manager reclaims namespaces here: the Routes go, so controllers stop writing them
  await Promise.all(
    created.map(({ ns, name }) =>
      kube()
        .custom.deleteNamespacedCustomObject({
          group: G,
          version: 'v1',
          namespace: ns,
          plural: 'httproutes',
          name
        })
        .catch(() => {})
    )
  )
})

describe('predict against what Contour, Envoy Gateway and Traefik write', () => {
  it(
    'dump, predict, apply, compare: no false block on any controller',
    { timeout: 240_000 },
    async () => {
      const appNs = await testNamespace('predict')
      const otherNs = await testNamespace('predict-other')
      // endpoints: Traefik calls a Service without EndpointSlices BackendNotFound, which is the data plane
      await createService(appNs, 'web', [8080], { endpoints: true })
      await createService(otherNs, 'web', [8080], { endpoints: true })
      for (const id of CONTROLLERS) {
        await applyYaml(stringify(heldRoute(id, appNs)), appNs)
        created.push({ ns: appNs, name: `${id}-held` })
      }
      // the dump must hold what each controller wrote on the held Routes
      for (const id of CONTROLLERS)
        await waitForRouteCondition('HTTPRoute', appNs, `${id}-held`, fresh, 60_000)

      const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-yardstick-'))
      const kubeconfig = clusterEnv().kubeconfig
      const dumped = await runCli(['dump', '-o', 'dump.yaml', '--kubeconfig', kubeconfig], {
        cwd: dir
      })
      expect(dumped.code, dumped.stderr).toBe(0)

      const plan = CONTROLLERS.flatMap((id) =>
        cases(id, appNs, otherNs).map((c) => ({
          id,
          c,
          ns: c.home === 'app' ? appNs : controller(id).gateway.namespace
        }))
      )
      const manifests = plan.map(({ id, c, ns }) => stringify(routeObject(c, id, ns))).join('---\n')
      await writeFile(path.join(dir, 'routes.yaml'), manifests)
      const predicted = await runCli(
        ['predict', '--manifests', 'routes.yaml', '--from-file', 'dump.yaml', '-o', 'json'],
        { cwd: dir }
      )
      expect([0, 1], predicted.stderr).toContain(predicted.code)
      const report = JSON.parse(predicted.stdout) as PredictReport
      expectValidReport(report)
      expect(report.prediction.source.kind).toBe('dump')
      expect(report.routes).toHaveLength(plan.length)
      // the live source (no --from-file) reads the same cluster, read-only, and predicts the same
      const live = await runCli(
        ['predict', '--manifests', 'routes.yaml', '--kubeconfig', kubeconfig, '-o', 'json'],
        { cwd: dir }
      )
      const liveReport = JSON.parse(live.stdout) as PredictReport
      expectValidReport(liveReport)
      expect(liveReport.prediction.source.kind).toBe('live')
      const verdicts = (r: PredictReport): string[] =>
        r.routes.map((route) => `${route.namespace}/${route.name} ${route.verdict}`)
      expect(verdicts(liveReport)).toEqual(verdicts(report))

      for (const { id, c, ns } of plan) {
        await applyYaml(stringify(routeObject(c, id, ns)), ns)
        created.push({ ns, name: `${id}-${c.name}` })
      }

      const rows: Row[] = []
      for (const { id, c, ns } of plan) {
        const name = `${id}-${c.name}`
        // what the cluster acknowledged: the controller's status for this generation, or, for a Route no
        // controller serves, the object as stored once the others have all been answered
        const route = c.silent
          ? await getRoute('HTTPRoute', ns, name)
          : await waitForRouteCondition('HTTPRoute', ns, name, fresh, 60_000)
        const result = report.routes.find((r) => r.name === name && r.namespace === ns)
        expect(result, name).toBeDefined()
        const parent = result!.parents[0]
        const failing = parent?.conditions?.find((cond) => cond.status === 'False')
        const truth = written(route)
        rows.push({
          controller: id,
          route: c.name,
          contested: c.contested === true,
          predicted: result!.verdict,
          predictedReason:
            failing?.reason ??
            (result!.verdict === 'failed' ? result!.problems?.[0]?.reason : undefined),
          written: truth.outcome,
          writtenReason: truth.reason
        })
      }
      // a Route no controller serves must still have no status once every other Route is answered
      for (const { id, c, ns } of plan.filter((p) => p.c.silent)) {
        expect(written(await getRoute('HTTPRoute', ns, `${id}-${c.name}`)).outcome).toBe(
          'no status'
        )
      }

      const falseBlocks = rows.filter((r) => r.predicted === 'failed' && r.written === 'ready')
      const falsePasses = rows.filter((r) => r.predicted === 'ready' && r.written !== 'ready')
      const agree = (r: Row): boolean =>
        r.predicted === r.written || (r.predicted === 'failed' && r.written === 'no status')
      const bothFail = rows.filter((r) => r.predicted === 'failed' && r.written === 'failed')
      const sameReason = bothFail.filter((r) => r.predictedReason === r.writtenReason)
      const lines = CONTROLLERS.map((id) => {
        const mine = rows.filter((r) => r.controller === id)
        return `  ${id}: verdicts agree on ${mine.filter(agree).length} of ${mine.length}; unknown ${mine.filter((r) => r.predicted === 'unknown').length}`
      })
      console.log(
        [
          'predict yardstick (dump → predict → apply → what the controllers wrote):',
          ...lines,
          `  exact reason on ${sameReason.length} of ${bothFail.length} failures both sides call`,
          `  false blocks: ${falseBlocks.length}; false passes: ${falsePasses.length}`,
          ...rows
            .filter(
              (r) =>
                !agree(r) ||
                (r.predicted === 'failed' &&
                  r.predictedReason !== r.writtenReason &&
                  r.written === 'failed')
            )
            .map(
              (r) =>
                `  differs: ${r.controller}/${r.route}: predicted ${r.predicted}${r.predictedReason ? ` ${r.predictedReason}` : ''}, written ${r.written}${r.writtenReason ? ` ${r.writtenReason}` : ''}`
            )
        ].join('\n')
      )
      expect(falseBlocks).toEqual([])
      // a prediction of ready that the controller refutes would let a broken change merge
      expect(falsePasses).toEqual([])
      // every shape here is decided by the objects, but for the pair Contour (which writes
      // RuleMatchConflict) may refuse either of: exactly those are unknown
      const contested = rows.filter((r) => r.contested && r.controller === 'contour')
      expect(rows.filter((r) => r.predicted === 'unknown')).toEqual(contested)
      expect(contested.map((r) => r.written).sort()).toEqual(['failed', 'ready'])
      // against the older Route of the dump, Contour's choice is decided: predicted exactly
      const taker = (id: ControllerId, route: string) =>
        rows.find((r) => r.controller === id && r.route === route)
      expect(taker('contour', 'takes-held')).toMatchObject({
        predicted: 'failed',
        predictedReason: 'RuleMatchConflict',
        written: 'failed',
        writtenReason: 'RuleMatchConflict'
      })
      for (const id of CONTROLLERS)
        expect(taker(id, 'beside-held')).toMatchObject({ predicted: 'ready', written: 'ready' })
      // Envoy Gateway and Traefik write no conflict reason: both Routes stay ready
      for (const id of CONTROLLERS.filter((c) => c !== 'contour'))
        expect(taker(id, 'takes-held')).toMatchObject({ predicted: 'ready', written: 'ready' })
    }
  )
})
