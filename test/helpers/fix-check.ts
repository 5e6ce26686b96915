// Every printed patch or create fix of one world, carried out and predicted again (issue 37): a
// proven fix removes its problem and takes no parent from a ready Route; one that detaches does
// take a parent; anything else says it is unproven.
import { expect } from 'vitest'
import type { Fix, KubeObject, PredictReport } from '../../src/model/types.ts'
import { run } from '../unit/predict/fixtures.ts'

export const ROUTE_KINDS = new Set(['HTTPRoute', 'GRPCRoute', 'TLSRoute', 'TCPRoute', 'UDPRoute'])

function verdicts(report: PredictReport): Map<string, string> {
  const out = new Map<string, string>()
  for (const r of report.routes)
    r.parents.forEach((p, i) => out.set(`${r.kind} ${r.namespace}/${r.name} #${i}`, p.verdict))
  return out
}

/** The objects with the fix's object in place of its target, or added; status kept as the server does. */
export function carryOut(objects: KubeObject[], fix: Fix): KubeObject[] {
  const object = fix.object as KubeObject
  const { kind, namespace, name } = fix.target
  const found = objects.find(
    (o) => o.kind === kind && o.metadata.name === name && o.metadata.namespace === namespace
  )
  if (!found) return [...objects, object]
  return objects.map((o) => (o === found ? { ...object, status: o.status } : o))
}

/** Checks each fix as above; returns them, for the caller to say which it expected. */
export function checkFixes(name: string, cluster: KubeObject[], routes: KubeObject[]): Fix[] {
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
  return fixes.map((f) => f.fix)
}
