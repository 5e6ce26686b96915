// route-gate supports every Node from package.json's engines floor (22.19.0) on, not only the Node 24
// GitHub runs Actions on: the committed bundles, started by that oldest Node (fetched from the npm
// registry into the cache), gate a real Route on the real control plane as the Action and as the CLI.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { runAction, runCli } from '../helpers/action.ts'
import { cachedTool } from '../helpers/cached-tools.ts'
import { clusterEnv, testNamespace } from '../helpers/cluster.ts'
import { reportOf } from '../helpers/gate.ts'
import { contourRoute, manifestDir, serviceYaml } from '../helpers/manifest-files.ts'
import { expectValidReport } from '../helpers/schema.ts'
import type { Report } from '../../src/model/types.ts'
import { MIN_NODE } from '../../src/runtime/start-up.ts'

const run = promisify(execFile)
const floor = MIN_NODE.join('.')

describe(`on the oldest supported Node (v${floor})`, () => {
  let node = ''
  beforeAll(async () => {
    node = await cachedTool('node-floor')
  })

  it('is that version, not the Node running the tests', async () => {
    const { stdout } = await run(node, ['--version'])
    expect(stdout.trim()).toBe(`v${floor}`)
    expect(process.version).not.toBe(`v${floor}`)
  })

  it('the Action applies a Service and a Route and passes once Contour accepts them', async () => {
    const ns = await testNamespace('oldest-node')
    const dir = await manifestDir({
      'app.yaml': `${serviceYaml('web')}---\n${contourRoute(ns, 'web', 'web')}`
    })
    const result = await runAction(
      { manifests: 'app.yaml', namespace: ns, timeout: '2m' },
      { env: { KUBECONFIG: clusterEnv().kubeconfig }, cwd: dir, node }
    )
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(result.outputs).toMatchObject({ verdict: 'ready', ready: 'true' })
    const report = await reportOf(result)
    expect(report.routes.map((r) => `${r.kind}/${r.namespace}/${r.name}`)).toEqual([
      `HTTPRoute/${ns}/web`
    ])
    expect(result.summary).toContain(`HTTPRoute <code>${ns}/web</code>`)
  })

  it('the CLI fails a Route whose Service is missing, with the reason, as JSON the schema accepts', async () => {
    const ns = await testNamespace('oldest-node-cli')
    const dir = await manifestDir({ 'route.yaml': contourRoute(ns, 'web', 'missing') })
    const result = await runCli(
      [
        'apply',
        '--manifests',
        'route.yaml',
        '--namespace',
        ns,
        '--timeout',
        '1m',
        '--fail-fast',
        '--format',
        'json'
      ],
      { env: { KUBECONFIG: clusterEnv().kubeconfig }, cwd: dir, node }
    )
    expect(result.code, result.stderr).toBe(1)
    const report = JSON.parse(result.stdout) as Report
    expectValidReport(report)
    expect(report.verdict).toBe('failed')
    const problems = report.routes[0]!.parents.flatMap((p) => p.problems.map((x) => x.reason))
    expect(problems).toContain('BackendNotFound')
  })
})
