// Every fix printed for the three controllers' recorded conformance dumps and the shipped example,
// carried out and predicted again (issue 37): a proven fix removes its problem and takes no parent
// from a ready Route; one that detaches does take the parents it names.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseManifestText } from '../../../src/read/manifests.ts'
import { writableObject } from '../../../src/diagnose/fixes.ts'
import type { Fix, KubeObject, PredictReport } from '../../../src/model/types.ts'
import { run } from './fixtures.ts'
import { decode } from '../../conformance/fixture-format.ts'

const ROUTE_KINDS = new Set(['HTTPRoute', 'GRPCRoute', 'TLSRoute', 'TCPRoute', 'UDPRoute'])
const CONTROLLERS = ['contour', 'envoy-gateway', 'traefik']

function verdicts(report: PredictReport): Map<string, string> {
  const out = new Map<string, string>()
  for (const r of report.routes)
    r.parents.forEach((p, i) => out.set(`${r.kind} ${r.namespace}/${r.name} #${i}`, p.verdict))
  return out
}

function carryOut(objects: KubeObject[], fix: Fix): KubeObject[] {
  const object = fix.object as KubeObject
  const { kind, namespace, name } = fix.target
  const found = objects.find(
    (o) => o.kind === kind && o.metadata.name === name && o.metadata.namespace === namespace
  )
  if (!found) return [...objects, object]
  return objects.map((o) => (o === found ? { ...object, status: o.status } : o))
}

/** The objects of each moment: the conformance recordings' 133 per controller, or the example. */
async function worlds(source: string): Promise<{ name: string; objects: KubeObject[] }[]> {
  if (source === 'example') {
    const url = new URL('../../../examples/cluster-dump.yaml', import.meta.url)
    const docs = await parseManifestText(readFileSync(url, 'utf8'), 'cluster-dump.yaml')
    return [{ name: 'example', objects: docs.map((d) => d.object) }]
  }
  const url = new URL(`../../fixtures/conformance/${source}.yaml`, import.meta.url)
  return decode(readFileSync(url, 'utf8')).moments.map((m) => ({
    name: m.name,
    objects: m.objects
  }))
}

/** Checks every printed patch or create fix of one world; returns how many it checked. */
function checkFixes(name: string, objects: KubeObject[]): number {
  const cluster = objects.filter((o) => !ROUTE_KINDS.has(o.kind))
  const routes = objects.filter((o) => ROUTE_KINDS.has(o.kind)).map(writableObject)
  const before = run(cluster, routes)
  const had = verdicts(before)
  const fixes = before.routes.flatMap((r) =>
    r.parents.flatMap((p, i) =>
      p.problems.flatMap((problem) =>
        (problem.fixes ?? [])
          .filter((f) => (f.action === 'patch' || f.action === 'create') && f.object)
          .map((fix) => ({ key: `${r.kind} ${r.namespace}/${r.name} #${i}`, r, i, problem, fix }))
      )
    )
  )
  for (const { key, r, i, problem, fix } of fixes) {
    const what = `${name}: ${key} ${problem.reason}: ${fix.action} ${fix.target.kind} ${fix.target.name} (${fix.proof?.state}: ${fix.proof?.text})`
    const isRoute = ROUTE_KINDS.has(fix.target.kind)
    const after = run(
      isRoute ? cluster : carryOut(cluster, fix),
      isRoute ? carryOut(routes, fix) : routes
    )
    const lost = [...verdicts(after)].filter(([k, v]) => had.get(k) === 'ready' && v !== 'ready')
    if (fix.proof?.state === 'proven') {
      const fixed = after.routes.find(
        (x) => x.kind === r.kind && x.namespace === r.namespace && x.name === r.name
      )
      expect(
        fixed?.parents[i]?.problems.map((p) => p.reason),
        what
      ).not.toContain(problem.reason)
      expect(lost, what).toEqual([])
    } else if (fix.proof?.state === 'detaches') {
      expect(lost.length, what).toBeGreaterThan(0)
    } else expect(fix.proof?.state, what).toBe('unproven')
  }
  return fixes.length
}

describe.each([...CONTROLLERS, 'example'])('every printed fix of %s, carried out', (source) => {
  it('holds as its proof says', async () => {
    let checked = 0
    for (const { name, objects } of await worlds(source)) checked += checkFixes(name, objects)
    expect(checked, 'fixes printed').toBeGreaterThan(0)
  })
})
