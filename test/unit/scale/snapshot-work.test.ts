// The snapshot's work grows with the cluster, not with its square: counted as reads of the World's
// lists and of the Routes while every Route of a made-up cluster is judged and explained, at two
// sizes ten times apart. Timing lives in `npm run bench`; this count fails on a scan per lookup.
import { describe, expect, it } from 'vitest'
import { explainRoute } from '../../../src/diagnose/explain.ts'
import { evaluateRoute } from '../../../src/model/evaluate.ts'
import { isRouteObject } from '../../../src/model/kinds.ts'
import type { KubeObject, World } from '../../../src/model/types.ts'
import { clusterScale } from '../../fixtures/cluster-scale.ts'

const OPTIONS = { conditions: ['Accepted', 'ResolvedRefs'], strict: false, final: false }

/** Reads of list elements while a snapshot of `size` Routes is judged, and the problems it found. */
function snapshotWork(size: number): { reads: number; failed: number } {
  let reads = 0
  const counted = <T extends KubeObject>(list: T[]): T[] =>
    new Proxy(list, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++
        return Reflect.get(target, key, receiver) as unknown
      }
    })
  const objects = clusterScale(size)
  const ofKind = (kind: string): KubeObject[] => counted(objects.filter((o) => o.kind === kind))
  const world: World = {
    gatewayClasses: ofKind('GatewayClass'),
    gateways: ofKind('Gateway'),
    namespaces: ofKind('Namespace'),
    services: ofKind('Service'),
    referenceGrants: [],
    listenerSets: [],
    unreadable: []
  }
  const routes = objects.filter(isRouteObject)
  const listed = counted(routes)
  let failed = 0
  for (const route of routes) {
    const result = explainRoute(evaluateRoute(route, world, OPTIONS), world, { routes: listed })
    if (result.verdict === 'failed') failed++
  }
  return { reads, failed }
}

describe('the snapshot at scale', () => {
  it('reads the World and the Routes a bounded number of times per Route, at 400 and 4,000 Routes', () => {
    const small = snapshotWork(400)
    const large = snapshotWork(4000)
    // every tenth Route names a missing Service: each is diagnosed, with a nearest-name search
    expect([small.failed, large.failed]).toEqual([40, 400])
    // linear work grows x10; a scan of every Service per Route grows x100
    expect(large.reads / small.reads).toBeLessThan(13)
  })
})
