// Calibration by feature on the real Contour: Contour refuses an HTTPRoute filter type it does not
// implement (CORS) with Accepted=False UnsupportedValue. Predict, given a dump that holds such a
// Route, predicts the same refusal for a new Route with that filter, naming the existing Route, and
// leaves a Route without it ready. Every expectation about Contour is read from what it wrote.
import { mkdtemp, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { PredictReport } from '../../src/model/types.ts'
import { runCli } from '../helpers/action.ts'
import {
  applyYaml,
  clusterEnv,
  createService,
  testNamespace,
  waitForRouteCondition,
  type RouteRead
} from '../helpers/cluster.ts'
import { contourRoute } from '../helpers/manifest-files.ts'
import { expectValidReport } from '../helpers/schema.ts'

const CORS = "[{type: CORS, cors: {allowOrigins: ['https://shop.example.com']}}]"

function withCors(yaml: string): string {
  return yaml.replace('  - backendRefs:', `  - filters: ${CORS}\n    backendRefs:`)
}

/** Contour's Accepted condition on the Route, once written for its generation. */
async function contourAccepted(ns: string, name: string) {
  const fresh = (route: RouteRead) =>
    route.status?.parents
      .flatMap((p) => p.conditions)
      .find((c) => c.type === 'Accepted' && c.observedGeneration === route.metadata.generation)
  const route = await waitForRouteCondition('HTTPRoute', ns, name, (r) => !!fresh(r), 30_000)
  return fresh(route)!
}

describe('calibration by feature, on Contour', () => {
  it('a new CORS Route is predicted refused as Contour refused the existing one', async () => {
    const ns = await testNamespace('feature-cal')
    await createService(ns, 'web', [{ port: 8080, name: 'http' }])
    await applyYaml(withCors(contourRoute(ns, 'cors-old', 'web')), ns)
    const written = await contourAccepted(ns, 'cors-old')
    // the premise, from Contour itself: it does not implement the CORS filter
    expect(written).toMatchObject({ status: 'False', reason: 'UnsupportedValue' })

    const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-feature-'))
    const dumped = await runCli(
      ['dump', '-o', 'dump.yaml', '--kubeconfig', clusterEnv().kubeconfig],
      {
        cwd: dir
      }
    )
    expect(dumped.code, dumped.stderr).toBe(0)
    await writeFile(path.join(dir, 'cors.yaml'), withCors(contourRoute(ns, 'cors-new', 'web')))
    await writeFile(path.join(dir, 'plain.yaml'), contourRoute(ns, 'plain', 'web'))
    const predicted = await runCli(
      [
        'predict',
        '--manifests',
        'cors.yaml,plain.yaml',
        '--from-file',
        'dump.yaml',
        '-n',
        ns,
        '-o',
        'json'
      ],
      { cwd: dir }
    )
    expect(predicted.code, predicted.stderr).toBe(1)
    const report = JSON.parse(predicted.stdout) as PredictReport
    expectValidReport(report)
    const byName = (name: string) => report.routes.find((r) => r.name === name)!.parents[0]!
    const cors = byName('cors-new')
    expect(cors.verdict).toBe('failed')
    const accepted = cors.conditions?.find((c) => c.type === 'Accepted')
    expect(accepted).toMatchObject({ status: 'False', reason: written.reason })
    expect(accepted?.message).toContain(`HTTPRoute ${ns}/cors-old, which also uses filter CORS`)
    expect(byName('plain').verdict).toBe('ready')
  })
})
