// The Action under a real workflow runner (nektos/act, see test/helpers/act.ts) against the real
// control plane: `uses: ./` after actions/checkout, as a user's workflow runs it. Each test asserts
// the step's conclusion and exit status, its outputs as a later `if: always()` step sees them, its
// job summary and its annotations, as act reads them from the runner's files and workflow commands.
import { afterEach, describe, expect, it } from 'vitest'
import { runWorkflow, step, stepValues, type WorkflowRun } from '../helpers/act.ts'
import { createService, testNamespace } from '../helpers/cluster.ts'
import { FakeGitHub } from '../helpers/fake-github.ts'
import { contourRoute, serviceYaml } from '../helpers/manifest-files.ts'
import { silentServer } from '../helpers/silent-server.ts'

/** A workflow whose `gate` step runs the Action with these inputs; `after` prints what it sees. */
function workflow(inputs: Record<string, string>): string {
  const withLines = Object.entries(inputs)
    .map(([k, v]) => `          ${k}: ${JSON.stringify(v)}`)
    .join('\n')
  return `name: deploy
on: [push, pull_request]
jobs:
  routes:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - id: gate
        uses: ./
        with:
${withLines}
      - id: after
        if: always()
        run: |
          echo "outcome=\${{ steps.gate.outcome }}"
          echo "verdict=\${{ steps.gate.outputs.verdict }}"
          echo "ready=\${{ steps.gate.outputs.ready }}"
          echo "failed-routes=\${{ steps.gate.outputs['failed-routes'] }}"
          echo "node=$(node --version)"
`
}

/** What the `after` step printed, as name=value. */
function seenAfter(run: WorkflowRun): Record<string, string> {
  expect(step(run, 'after').result, run.raw).toBe('success')
  return stepValues(run, 'after')
}

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c()
})

describe('the Action under act', () => {
  it('applies a Service and a Route and waits: the step passes, verdict=ready, ready=true', async () => {
    const ns = await testNamespace('act-ready')
    const run = await runWorkflow({
      workflow: workflow({ manifests: 'deploy/', namespace: ns, timeout: '60s' }),
      files: { 'deploy/app.yaml': `${serviceYaml('web')}---\n${contourRoute(ns, 'web', 'web')}` }
    })
    const gate = step(run, 'gate')
    expect(gate.result, run.raw).toBe('success')
    expect(gate.annotations.filter((a) => a.level === 'error')).toEqual([])
    expect(seenAfter(run)).toMatchObject({
      outcome: 'success',
      verdict: 'ready',
      ready: 'true',
      'failed-routes': '',
      node: expect.stringMatching(/^v24\./) as string
    })
    expect(gate.summary).toContain('1 of 1 Route ready')
    expect(gate.summary).toContain(`HTTPRoute <code>${ns}/web</code>`)
    expect(run.jobResult).toBe('success')
  })

  it('a Route whose Service is missing: fails, names it, remediation in the summary, annotation at file:line', async () => {
    const ns = await testNamespace('act-missing')
    await createService(ns, 'checkout', [{ port: 8080, name: 'http' }])
    const run = await runWorkflow({
      workflow: workflow({ manifests: 'deploy/route.yaml', namespace: ns, timeout: '8s' }),
      files: { 'deploy/route.yaml': contourRoute(ns, 'web', 'checkout-svc') }
    })
    const gate = step(run, 'gate')
    expect(gate.result, run.raw).toBe('failure')
    expect(gate.exitStatus).toBe(1)
    expect(seenAfter(run)).toMatchObject({
      outcome: 'failure',
      verdict: 'failed',
      ready: 'false',
      'failed-routes': `HTTPRoute ${ns}/web`
    })
    expect(gate.summary).toContain('BackendNotFound')
    expect(gate.summary).toContain('checkout-svc')
    expect(gate.summary).toContain('nearest existing Service')
    // the manifest's file:line links to the line at the commit the runner checked out
    expect(gate.summary).toMatch(
      /from \[deploy\/route\.yaml:(\d+)\]\(https:\/\/github\.com\/acme\/shop\/blob\/[0-9a-f]{40}\/deploy\/route\.yaml#L\1\)/
    )
    const atManifest = gate.annotations.filter(
      (a) => a.level === 'error' && a.properties.file === 'deploy/route.yaml'
    )
    expect(atManifest, run.raw).toHaveLength(1)
    expect(atManifest[0]!.properties.line).toBe('1')
    expect(atManifest[0]!.message).toContain('checkout-svc')
    expect(run.jobResult).toBe('failure')
  })

  it('a bad input (timeout: 5 minutes): fails with exit 2 and the one-line message as an annotation', async () => {
    const run = await runWorkflow({
      workflow: workflow({ routes: 'httproute/web', timeout: '5 minutes' })
    })
    const gate = step(run, 'gate')
    expect(gate.result, run.raw).toBe('failure')
    expect(gate.exitStatus).toBe(2)
    expect(gate.annotations).toEqual([
      {
        level: 'error',
        message: 'route-gate: Invalid timeout "5 minutes": use a duration like 90s, 5m or 1h',
        properties: {}
      }
    ])
    expect(seenAfter(run)).toMatchObject({ outcome: 'failure', verdict: 'error', ready: 'false' })
  })

  it('fail-fast on correct manifests whose Route file sorts first: passes', async () => {
    const ns = await testNamespace('act-order')
    const run = await runWorkflow({
      workflow: workflow({
        manifests: 'deploy/',
        namespace: ns,
        timeout: '60s',
        'fail-fast': 'true'
      }),
      files: {
        'deploy/a-route.yaml': contourRoute(ns, 'web', 'web'),
        'deploy/b-service.yaml': serviceYaml('web')
      }
    })
    expect(step(run, 'gate').result, run.raw).toBe('success')
    expect(seenAfter(run)).toMatchObject({ verdict: 'ready', ready: 'true' })
  })

  it('comment: true on a pull_request event: the verdict is posted on the pull request', async () => {
    const github = new FakeGitHub()
    const apiUrl = await github.start()
    cleanups.push(() => github.stop())
    const pull = github.addIssue({
      title: 'Deploy web',
      pull_request: { url: `${apiUrl}/pulls/1` }
    })
    const ns = await testNamespace('act-comment')
    const run = await runWorkflow({
      workflow: workflow({ manifests: 'deploy/', namespace: ns, timeout: '60s', comment: 'true' }),
      files: { 'deploy/app.yaml': `${serviceYaml('web')}---\n${contourRoute(ns, 'web', 'web')}` },
      event: {
        name: 'pull_request',
        payload: {
          action: 'synchronize',
          number: pull.number,
          pull_request: { number: pull.number }
        }
      },
      env: { GITHUB_API_URL: apiUrl },
      secrets: { GITHUB_TOKEN: 'ghs_acttoken' }
    })
    expect(step(run, 'gate').result, run.raw).toBe('success')
    expect(github.comments, run.raw).toHaveLength(1)
    const [comment] = github.comments
    expect(comment!.issue_number).toBe(pull.number)
    expect(comment!.body).toContain('<!-- route-gate:')
    expect(comment!.body).toContain('1 of 1 Route ready')
    expect(github.requests.every((r) => r.authorization === 'token ghs_acttoken')).toBe(true)
    expect(github.operations).toEqual(['issues/list-comments', 'issues/create-comment'])
  })

  it('monitor with a GitHub API that does not answer: fails within a bound, saying GitHub could not be reached', async () => {
    const silent = await silentServer()
    cleanups.push(() => silent.close())
    const ns = await testNamespace('act-monitor')
    const run = await runWorkflow({
      workflow: workflow({ mode: 'monitor', namespace: ns, 'cluster-name': 'act' }),
      env: { GITHUB_API_URL: silent.url },
      secrets: { GITHUB_TOKEN: 'ghs_acttoken' }
    })
    const gate = step(run, 'gate')
    expect(gate.result, run.raw).toBe('failure')
    expect(gate.exitStatus).toBe(1)
    const errors = gate.annotations.filter((a) => a.level === 'error').map((a) => a.message)
    expect(errors.join('\n'), run.raw).toContain(
      `route-gate: tracking issue: Could not list the tracking issues: could not reach GITHUB_API_URL (${silent.url}): no answer within 10 s`
    )
    expect(errors.join('\n')).not.toMatch(/answered/)
    expect(silent.connections()).toBeGreaterThan(0)
    // the client's bound on one call (30 s) plus act and the monitor's own run, with room for a slow machine
    expect(run.elapsedMs).toBeLessThan(90_000)
  })
})
