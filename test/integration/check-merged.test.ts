// check --manifests after a merge, as a GitOps tool would leave the cluster: the files are merged,
// the tool applies them later (here: the test, during the wait). On the real API server with
// Contour, Envoy Gateway and Traefik writing status, through the committed CLI bundle. check must
// judge the Route that carries the files, never the one still running.
import { describe, expect, it } from 'vitest'
import { connect } from '../../src/cluster/connect.ts'
import { KNOWN_DEFAULTS, defaultsOfSchema } from '../../src/model/api-defaults.ts'
import type { Report } from '../../src/model/types.ts'
import { runCli, type ProcessResult } from '../helpers/action.ts'
import {
  applyYaml,
  clusterEnv,
  createService,
  gatewayParentRef,
  kube,
  testHostname,
  testNamespace,
  waitForRouteCondition,
  type ControllerId
} from '../helpers/cluster.ts'
import { gate, logOf, reportOf } from '../helpers/gate.ts'
import { manifestDir } from '../helpers/manifest-files.ts'
import { expectValidReport } from '../helpers/schema.ts'

const ALL: ControllerId[] = ['contour', 'envoy-gateway', 'traefik']

/** An HTTPRoute as users write it: the server defaults the parentRef's group and kind, the backendRef's group, kind and weight, and the rule's match. */
function routeYaml(
  ns: string,
  id: ControllerId,
  backend: { name: string; namespace?: string },
  annotations = ''
): string {
  const { group: _g, kind: _k, ...parent } = gatewayParentRef(id, 'http')
  const backendNs = backend.namespace === undefined ? '' : `, namespace: ${backend.namespace}`
  return `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
  namespace: ${ns}${annotations}
spec:
  parentRefs: [${JSON.stringify(parent)}]
  hostnames: [${testHostname(ns)}]
  rules:
  - backendRefs: [{name: ${backend.name}, port: 8080${backendNs}}]
`
}

function accepted(id: ControllerId, reason: string) {
  return (route: Awaited<ReturnType<typeof waitForRouteCondition>>): boolean =>
    route.status?.parents.some(
      (p) =>
        p.parentRef.name === gatewayParentRef(id).name &&
        p.conditions.some((c) => c.type === 'ResolvedRefs' && c.reason === reason)
    ) ?? false
}

/** The CLI's check; `during` runs once, when the gate has said it waits for the cluster to carry the files. */
async function check(
  args: string[],
  cwd: string,
  during?: () => Promise<void>
): Promise<{ result: ProcessResult; report: Report; appliedAt?: number }> {
  let appliedAt: number | undefined
  let applying: Promise<void> | undefined
  const result = await runCli(
    ['check', ...args, '--kubeconfig', clusterEnv().kubeconfig, '-o', 'json', '--heartbeat', '1s'],
    {
      cwd,
      onStderr: (soFar) => {
        if (during === undefined || applying !== undefined || !soFar.includes('NotSynced')) return
        appliedAt = Date.now()
        applying = during()
      }
    }
  )
  await applying
  const report = JSON.parse(result.stdout) as Report
  expectValidReport(report)
  return { result, report, appliedAt }
}

function reasonsOf(report: Report): string[] {
  return report.routes.flatMap((r) => r.parents.flatMap((p) => p.problems.map((x) => x.reason)))
}

async function readyRoute(ns: string, id: ControllerId): Promise<string> {
  await createService(ns, 'web', [{ port: 8080, name: 'http' }], { endpoints: true })
  const live = routeYaml(ns, id, { name: 'web' })
  await applyYaml(live, ns)
  await waitForRouteCondition('HTTPRoute', ns, 'web', accepted(id, 'ResolvedRefs'))
  return live
}

describe.each(ALL)('check --manifests waits for the merged files (%s)', (id) => {
  it('judges a file equal to the live Route but for server defaults at once, and never passes a stale Route whose merged file nobody applies', async () => {
    const ns = await testNamespace('merged')
    const live = await readyRoute(ns, id)
    const merged = live.replace('name: web, port', 'name: web-v2, port')
    const dir = await manifestDir({ 'live.yaml': live, 'merged.yaml': merged })

    const same = await check(['--manifests', 'live.yaml', '--timeout', '60s'], dir)
    expect(same.result.code, same.result.stderr).toBe(0)
    expect(same.result.stderr).not.toContain('NotSynced')

    const stale = await check(['--manifests', 'merged.yaml', '--timeout', '4s', '--fail-fast'], dir)
    expect(stale.result.code, stale.result.stderr).toBe(1)
    expect(stale.report.verdict).toBe('failed')
    expect(reasonsOf(stale.report)).toEqual(['NotSynced'])
    expect(stale.result.stderr).toContain(
      'waiting for the cluster to carry merged.yaml: spec.rules[0].backendRefs[0].name is web, the file says web-v2'
    )
    const evidence = stale.report.routes[0]!.parents[0]!.problems[0]!.evidence ?? []
    expect(evidence.join(' ')).toMatch(/last written by route-gate-tests \(Apply, /)
  })

  it('fails with BackendNotFound once the broken merged file is applied during the wait', async () => {
    const ns = await testNamespace('merged-broken')
    const live = await readyRoute(ns, id)
    const merged = live.replace('name: web, port', 'name: web-v2, port')
    const dir = await manifestDir({ 'merged.yaml': merged })
    const run = await check(
      ['--manifests', 'merged.yaml', '--timeout', '60s', '--fail-fast'],
      dir,
      async () => {
        await applyYaml(merged, ns)
      }
    )
    expect(run.appliedAt, run.result.stderr).toBeDefined()
    expect(run.result.code, run.result.stderr).toBe(1)
    expect(reasonsOf(run.report)).toContain('BackendNotFound')
    expect(reasonsOf(run.report)).not.toContain('NotSynced')
  })

  it('passes a merged fix only after it is applied', async () => {
    const ns = await testNamespace('merged-fix')
    await createService(ns, 'web', [{ port: 8080, name: 'http' }], { endpoints: true })
    const broken = routeYaml(ns, id, { name: 'missing' })
    await applyYaml(broken, ns)
    await waitForRouteCondition('HTTPRoute', ns, 'web', accepted(id, 'BackendNotFound'))
    const fix = routeYaml(ns, id, { name: 'web' })
    const dir = await manifestDir({ 'fix.yaml': fix })
    const run = await check(
      ['--manifests', 'fix.yaml', '--timeout', '60s', '--fail-fast'],
      dir,
      async () => {
        await applyYaml(fix, ns)
      }
    )
    expect(run.result.code, run.result.stderr).toBe(0)
    const readyAt = Date.parse(run.report.routes[0]!.readyAt ?? '')
    expect(readyAt).toBeGreaterThanOrEqual(run.appliedAt!)
  })

  it('holds the Routes pending while a Namespace label and a ReferenceGrant of the files are not in the cluster', async () => {
    const ns = await testNamespace('merged-grant')
    const backends = await testNamespace('merged-backend')
    await createService(backends, 'api', [{ port: 8080, name: 'http' }], { endpoints: true })
    const route = routeYaml(ns, id, { name: 'api', namespace: backends })
    await applyYaml(route, ns)
    await waitForRouteCondition('HTTPRoute', ns, 'web', accepted(id, 'RefNotPermitted'))
    const namespace = `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n  labels: {team: shop}\n`
    const grant = `apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: from-web, namespace: ${backends}}
spec:
  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: ${ns}}]
  to: [{group: "", kind: Service}]
`
    const dir = await manifestDir({ 'app.yaml': `${namespace}---\n${grant}---\n${route}` })
    const args = ['--manifests', 'app.yaml', '--timeout', '3s', '--fail-fast']

    const unlabelled = await check(args, dir)
    expect(unlabelled.result.code, unlabelled.result.stderr).toBe(1)
    expect(reasonsOf(unlabelled.report)).toEqual(['NotSynced'])
    expect(unlabelled.result.stderr).toContain(
      `waiting for the cluster to carry app.yaml (Namespace ${ns}): metadata.labels.team is not set, the file says shop`
    )

    const current = await kube().core.readNamespace({ name: ns })
    current.metadata = {
      ...current.metadata,
      labels: { ...current.metadata?.labels, team: 'shop' }
    }
    await kube().core.replaceNamespace({ name: ns, body: current })
    const ungranted = await check(args, dir)
    expect(reasonsOf(ungranted.report)).toEqual(['NotSynced'])
    expect(ungranted.result.stderr).toContain(
      `waiting for the cluster to carry app.yaml: ReferenceGrant ${backends}/from-web does not exist yet`
    )

    await applyYaml(grant, backends)
    const granted = await check(['--manifests', 'app.yaml', '--timeout', '60s'], dir)
    expect(granted.result.code, granted.result.stderr).toBe(0)
  })
})

describe.each(ALL)('until-annotation waits for the revision marker (%s)', (id) => {
  it('holds a Route named by routes until it carries the annotation, then judges it', async () => {
    const ns = await testNamespace('marker')
    await readyRoute(ns, id)
    const marker = (rev: string): string =>
      routeYaml(ns, id, { name: 'web' }, `\n  annotations: {example.com/revision: ${rev}}`)
    await applyYaml(marker('old'), ns)
    const dir = await manifestDir({})
    const args = [
      '--routes',
      `httproute/${ns}/web`,
      '--until-annotation',
      'example.com/revision=new'
    ]

    const stale = await check([...args, '--timeout', '3s'], dir)
    expect(stale.result.code, stale.result.stderr).toBe(1)
    expect(stale.result.stderr).toContain(
      `waiting for HTTPRoute ${ns}/web to carry annotation example.com/revision=new: it is old`
    )

    const run = await check([...args, '--timeout', '60s'], dir, async () => {
      await applyYaml(marker('new'), ns)
    })
    expect(run.result.code, run.result.stderr).toBe(0)
    expect(Date.parse(run.report.routes[0]!.readyAt ?? '')).toBeGreaterThanOrEqual(run.appliedAt!)

    // the Action's input, on a selector scope
    const action = await gate({
      mode: 'check',
      selector: 'app!=none',
      namespace: ns,
      'until-annotation': 'example.com/revision=new',
      timeout: '60s'
    })
    expect(action.code).toBe(0)
    expect((await reportOf(action)).verdict).toBe('ready')
    const refused = await gate({
      mode: 'check',
      routes: `httproute/${ns}/web`,
      'until-annotation': 'no equals sign'
    })
    expect(refused.code).toBe(2)
    expect(logOf(refused)).toContain('Invalid until-annotation "no equals sign": use KEY=VALUE')
  })
})

const byPath = (defaults: ReadonlyMap<string, unknown>): [string, unknown][] =>
  [...defaults].sort(([a], [b]) => (a < b ? -1 : 1))

describe("the server defaults check knows are the served CRDs'", () => {
  const plural = (kind: string): string =>
    kind === 'BackendTLSPolicy'
      ? 'backendtlspolicies'
      : `${kind.toLowerCase()}${kind.endsWith('s') ? 'es' : 's'}`

  it.each([...KNOWN_DEFAULTS.keys()])(
    '%s: the table, every served version of the CRD and the served OpenAPI document agree',
    async (kind) => {
      // the raw object: the client's typed CRD model does not keep every `default`
      const crd = (await kube().custom.getClusterCustomObject({
        group: 'apiextensions.k8s.io',
        version: 'v1',
        plural: 'customresourcedefinitions',
        name: `${plural(kind)}.gateway.networking.k8s.io`
      })) as {
        spec: {
          versions: { name: string; served: boolean; schema: { openAPIV3Schema: unknown } }[]
        }
      }
      const table = byPath(KNOWN_DEFAULTS.get(kind)!)
      const served = crd.spec.versions.filter((v) => v.served)
      expect(served.length).toBeGreaterThan(0)
      for (const version of served) {
        expect(byPath(defaultsOfSchema(version.schema.openAPIV3Schema)), version.name).toEqual(
          table
        )
      }
      const client = await connect({ env: { KUBECONFIG: clusterEnv().kubeconfig }, mask: () => {} })
      try {
        const published = await client.servedDefaults(
          `gateway.networking.k8s.io/${served[0]!.name}`,
          kind
        )
        expect(byPath(published ?? new Map())).toEqual(table)
      } finally {
        client.close()
      }
    }
  )
})
