// A live run proves its fixes against one full read of the cluster; without that read, none is
// marked proven.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { proveLive } from '../../src/jobs/prove-live.ts'
import { parseManifestText } from '../../src/read/manifests.ts'
import type { KubeObject, ReportVerdict, RouteObject, RouteResult } from '../../src/model/types.ts'
import { FakeCluster } from '../helpers/fake-cluster.ts'
import { run } from './predict/fixtures.ts'

const ROUTE_KINDS = new Set(['HTTPRoute', 'GRPCRoute', 'TLSRoute', 'TCPRoute', 'UDPRoute'])

async function exampleCluster(): Promise<{ fake: FakeCluster; objects: KubeObject[] }> {
  const text = readFileSync(new URL('../../examples/cluster-dump.yaml', import.meta.url), 'utf8')
  const objects = (await parseManifestText(text, 'cluster-dump.yaml')).map((d) => d.object)
  const fake = new FakeCluster()
  const of = (kind: string) => objects.filter((o) => o.kind === kind)
  fake.world = {
    gatewayClasses: of('GatewayClass'),
    gateways: of('Gateway'),
    namespaces: of('Namespace'),
    services: of('Service'),
    referenceGrants: of('ReferenceGrant'),
    unreadable: []
  }
  fake.routes = objects.filter((o) => ROUTE_KINDS.has(o.kind)) as RouteObject[]
  return { fake, objects }
}

/** The example's Routes as judged, their fixes not yet proven. */
function unproven(objects: KubeObject[]): RouteResult<ReportVerdict>[] {
  const report = run(
    objects.filter((o) => !ROUTE_KINDS.has(o.kind)),
    objects.filter((o) => ROUTE_KINDS.has(o.kind))
  )
  return report.routes.map((r) => ({
    ...r,
    parents: r.parents.map((p) => ({
      ...p,
      problems: p.problems.map((problem) => ({
        ...problem,
        ...(problem.fixes ? { fixes: problem.fixes.map(({ proof: _proof, ...fix }) => fix) } : {})
      }))
    }))
  }))
}

const proofs = (routes: RouteResult<ReportVerdict>[]) =>
  routes.flatMap((r) =>
    r.parents.flatMap((p) =>
      p.problems.flatMap((problem) =>
        (problem.fixes ?? []).map((f) => `${f.target.kind} ${f.target.name}: ${f.proof?.state}`)
      )
    )
  )

describe('proveLive', () => {
  it('proves the label and the grant against one read of the whole cluster', async () => {
    const { fake, objects } = await exampleCluster()
    const routes = unproven(objects)
    expect(proofs(routes).every((p) => p.endsWith(': undefined'))).toBe(true)
    const proven = await proveLive(routes, fake, ['Accepted', 'ResolvedRefs'])
    expect(proofs(proven).sort()).toEqual([
      'Namespace marketing: proven',
      'ReferenceGrant allow-shop-httproutes: proven'
    ])
  })

  it('marks every fix unproven, naming the cluster, when the read fails', async () => {
    const { fake, objects } = await exampleCluster()
    fake.readDump = () => Promise.reject(new Error('forbidden'))
    const proven = await proveLive(unproven(objects), fake, ['Accepted', 'ResolvedRefs'])
    expect(proofs(proven).sort()).toEqual([
      'Namespace marketing: unproven',
      'ReferenceGrant allow-shop-httproutes: unproven'
    ])
    const texts = proven.flatMap((r) =>
      r.parents.flatMap((p) => p.problems.flatMap((x) => x.fixes ?? []))
    )
    expect(texts[0]?.proof?.text).toBe(
      `route-gate could not read the whole cluster (${fake.description}) to predict it`
    )
  })
})
