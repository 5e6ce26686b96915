// The Action's mode: predict under a real workflow runner (nektos/act), as a pull request job without
// cluster credentials runs it: the snapshot is a dump `route-gate dump` took of the real control
// plane (a scheduled job's artifact in a user's repository), committed beside the manifests.
import { mkdtemp, readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runWorkflow, step, stepValues, type WorkflowRun } from '../helpers/act.ts'
import { runCli } from '../helpers/action.ts'
import { clusterEnv, createService, testNamespace } from '../helpers/cluster.ts'
import { contourRoute } from '../helpers/manifest-files.ts'

function workflow(namespace: string): string {
  return `name: predict
on: [pull_request]
jobs:
  routes:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - id: predict
        uses: ./
        with:
          mode: predict
          manifests: deploy/
          cluster-snapshot: snapshot/dump.yaml
          namespace: ${namespace}
      - id: after
        if: always()
        run: |
          echo "outcome=\${{ steps.predict.outcome }}"
          echo "verdict=\${{ steps.predict.outputs.verdict }}"
          echo "failed-routes=\${{ steps.predict.outputs['failed-routes'] }}"
`
}

function seenAfter(run: WorkflowRun): Record<string, string> {
  expect(step(run, 'after').result, run.raw).toBe('success')
  return stepValues(run, 'after')
}

const PULL_REQUEST = {
  name: 'pull_request',
  payload: { pull_request: { number: 7, head: { sha: 'abc' } } }
}

let ns: string
let dump: string

beforeAll(async () => {
  ns = await testNamespace('act-predict')
  await createService(ns, 'web', [{ port: 8080, name: 'http' }])
  const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-act-dump-'))
  const dumped = await runCli(
    ['dump', '-o', 'dump.yaml', '--kubeconfig', clusterEnv().kubeconfig],
    { cwd: dir }
  )
  if (dumped.code !== 0) throw new Error(`route-gate dump failed: ${dumped.stderr}`)
  dump = await readFile(path.join(dir, 'dump.yaml'), 'utf8')
})

describe('mode: predict under act', () => {
  it('a correct change: the step passes, verdict=ready, and nothing reaches the cluster', async () => {
    const run = await runWorkflow({
      workflow: workflow(ns),
      event: PULL_REQUEST,
      files: {
        'snapshot/dump.yaml': dump,
        'deploy/route.yaml': contourRoute(ns, 'web', 'web')
      }
    })
    const predict = step(run, 'predict')
    expect(predict.result, run.raw).toBe('success')
    expect(seenAfter(run)).toMatchObject({
      outcome: 'success',
      verdict: 'ready',
      'failed-routes': ''
    })
    expect(predict.summary).toContain('1 of 1 Route predicted ready')
    expect(predict.summary).toContain('Predicted against a dump taken')
  })

  it('a wrong Service port: the step fails, names the Route, annotates its manifest line', async () => {
    const run = await runWorkflow({
      workflow: workflow(ns),
      event: PULL_REQUEST,
      files: {
        'snapshot/dump.yaml': dump,
        'deploy/a-good.yaml': contourRoute(ns, 'good', 'web'),
        'deploy/b-bad.yaml': contourRoute(ns, 'bad', 'web', 9999)
      }
    })
    const predict = step(run, 'predict')
    expect(predict.result, run.raw).toBe('failure')
    expect(predict.exitStatus).toBe(1)
    expect(seenAfter(run)).toMatchObject({
      outcome: 'failure',
      verdict: 'failed',
      'failed-routes': `HTTPRoute ${ns}/bad`
    })
    expect(predict.summary).toContain('1 of 2 Routes predicted ready')
    expect(predict.summary).toContain('9999')
    const errors = predict.annotations.filter((a) => a.level === 'error')
    const atManifest = errors.filter((a) => a.properties.file === 'deploy/b-bad.yaml')
    expect(atManifest, run.raw).toHaveLength(1)
    expect(atManifest[0]!.properties.title).toContain('is predicted to fail')
    expect(errors.filter((a) => a.properties.file === 'deploy/a-good.yaml')).toEqual([])
  })
})
