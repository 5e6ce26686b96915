// Two Action features that had only run against fakes, now through the committed bundle against the
// real control plane: `dry-run: true` (the API server validates, nothing is created) and
// `comment: true` (the verdict posted on the event's pull request, edited in place on a re-run).
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runAction } from '../helpers/action.ts'
import { clusterEnv, createService, getRoute, kube, testNamespace } from '../helpers/cluster.ts'
import { FakeGitHub } from '../helpers/fake-github.ts'
import { contourRoute, manifestDir, serviceYaml } from '../helpers/manifest-files.ts'

async function statusOf(read: () => Promise<unknown>): Promise<number | 'found'> {
  try {
    await read()
    return 'found'
  } catch (error) {
    return (error as { code?: number }).code ?? -1
  }
}

const serviceStatus = (ns: string, name: string) =>
  statusOf(() => kube().core.readNamespacedService({ name, namespace: ns }))
const routeStatus = (ns: string, name: string) => statusOf(() => getRoute('HTTPRoute', ns, name))

describe('dry-run: true against the real API server', () => {
  it('validates correct manifests and creates nothing', async () => {
    const ns = await testNamespace('dry-ok')
    const dir = await manifestDir({
      'app.yaml': `${serviceYaml('web')}---\n${contourRoute(ns, 'web', 'web')}`
    })
    const result = await runAction(
      { manifests: 'app.yaml', namespace: ns, 'dry-run': 'true' },
      { env: { KUBECONFIG: clusterEnv().kubeconfig }, cwd: dir }
    )
    expect(result.code, result.stdout).toBe(0)
    expect(result.stdout).toContain(
      'Dry run: 2 of 2 documents accepted by the API server; nothing applied'
    )
    expect(result.summary).toContain('nothing was applied and no Route was gated')
    expect(await serviceStatus(ns, 'web')).toBe(404)
    expect(await routeStatus(ns, 'web')).toBe(404)
  })

  it('names the document the API server rejects, exit 2, and applies none of the others', async () => {
    const ns = await testNamespace('dry-bad')
    // the HTTPRoute CRD's schema allows ports 1-65535: only the API server can say so
    const dir = await manifestDir({
      'app.yaml': `${serviceYaml('web')}---\n${contourRoute(ns, 'web', 'web', 70000)}`
    })
    const result = await runAction(
      { manifests: 'app.yaml', namespace: ns, 'dry-run': 'true' },
      { env: { KUBECONFIG: clusterEnv().kubeconfig }, cwd: dir }
    )
    expect(result.code, result.stdout).toBe(2)
    expect(result.stdout).toMatch(/::error::route-gate: .*app\.yaml.*port/)
    expect(result.outputs.verdict).toBe('error')
    expect(await serviceStatus(ns, 'web')).toBe(404)
    expect(await routeStatus(ns, 'web')).toBe(404)
  })
})

describe('comment: true on a pull request', () => {
  let github: FakeGitHub | undefined
  afterEach(async () => {
    await github?.stop()
    github = undefined
  })

  it('posts the failing Route with its remediation, then edits the same comment when it is fixed', async () => {
    github = new FakeGitHub()
    const apiUrl = await github.start()
    const pull = github.addIssue({
      title: 'Deploy web',
      pull_request: { url: `${apiUrl}/pulls/1` }
    })
    const ns = await testNamespace('e2e-comment')
    const dir = await manifestDir({ 'route.yaml': contourRoute(ns, 'web', 'web') })
    await writeFile(
      path.join(dir, 'event.json'),
      JSON.stringify({
        action: 'opened',
        number: pull.number,
        pull_request: { number: pull.number }
      })
    )
    const run = (timeout: string) =>
      runAction(
        {
          manifests: 'route.yaml',
          namespace: ns,
          timeout,
          comment: 'true',
          'github-token': 'ghs_e2e'
        },
        {
          env: {
            KUBECONFIG: clusterEnv().kubeconfig,
            GITHUB_REPOSITORY: 'acme/shop',
            GITHUB_API_URL: apiUrl,
            GITHUB_EVENT_NAME: 'pull_request',
            GITHUB_EVENT_PATH: path.join(dir, 'event.json'),
            GITHUB_WORKFLOW: 'deploy',
            GITHUB_JOB: 'routes',
            GITHUB_RUN_ID: '77'
          },
          cwd: dir
        }
      )

    const failed = await run('8s')
    expect(failed.code, failed.stdout).toBe(1)
    expect(github.comments).toHaveLength(1)
    const first = github.comments[0]!
    expect(first.issue_number).toBe(pull.number)
    expect(first.body).toContain(`${ns}/web`)
    expect(first.body).toContain('BackendNotFound')
    expect(first.body).toContain(`Create Service ${ns}/web`)
    expect(first.body).toContain('https://github.com/acme/shop/actions/runs/77')

    await createService(ns, 'web', [{ port: 8080, name: 'http' }])
    const fixed = await run('60s')
    expect(fixed.code, fixed.stdout).toBe(0)
    expect(github.comments).toHaveLength(1)
    expect(github.comments[0]!.id).toBe(first.id)
    expect(github.comments[0]!.body).toContain('1 of 1 Route ready')
    expect(github.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /repos/acme/shop/issues/${pull.number}/comments`,
      `PATCH /repos/acme/shop/issues/comments/${first.id}`
    ])
    expect(github.contractProblems).toEqual([])
  })
})
