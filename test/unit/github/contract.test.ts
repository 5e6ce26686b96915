// route-gate's GitHub traffic against GitHub's published REST API description (@octokit/openapi):
// every exchange of a monitor's life and a pull request's comment goes through the fake GitHub, which
// judges each request and answer; the operations used are listed here, so a new one is seen.
import { mkdtemp, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  commentOnPullRequest,
  openTracking,
  saveTracking,
  type Tracking
} from '../../../src/github/conversations.ts'
import { parseSettings } from '../../../src/inputs/parse.ts'
import { buildReport } from '../../../src/model/report.ts'
import { diffStates } from '../../../src/model/transitions.ts'
import type { RouteResult } from '../../../src/model/types.ts'
import { checkExchange } from '../../helpers/github-contract.ts'
import { FakeGitHub } from '../../helpers/fake-github.ts'
import { monitorReport, route } from '../../fixtures/monitor/reports.ts'

// the pull request is the third item: two tracking issues come first
const PULL = 3
const logger = { info: () => {}, warning: () => {} }
let github: FakeGitHub
let env: NodeJS.ProcessEnv

beforeEach(async () => {
  github = new FakeGitHub()
  const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-event-'))
  await writeFile(path.join(dir, 'event.json'), JSON.stringify({ pull_request: { number: PULL } }))
  env = {
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_API_URL: await github.start(),
    GITHUB_EVENT_PATH: path.join(dir, 'event.json'),
    GITHUB_RUN_ID: '7'
  }
})
afterEach(() => github.stop())

const monitor = parseSettings(
  (name) => ({ 'github-token': 'ghs_x', 'cluster-name': 'prod' })[name],
  'monitor'
)
const gate = parseSettings(
  (name) => ({ routes: 'httproute/web', comment: 'true', 'github-token': 'ghs_x' })[name],
  'gate'
)

async function monitorRun(routes: RouteResult[]): Promise<void> {
  const tracking = (await openTracking(monitor, env, logger)) as Tracking
  expect(tracking.error).toBeUndefined()
  const report = monitorReport(routes, diffStates(tracking.loaded?.previous, routes))
  expect(await saveTracking(tracking, report, logger)).toBeUndefined()
}

describe("route-gate's GitHub requests", () => {
  it('are all documented operations, answered as documented; these are the ones it uses', async () => {
    await monitorRun([route('web', 'ready')]) // created, then closed
    await monitorRun([route('web', 'failed')]) // reopened, with a comment
    await monitorRun([route('web', 'failed')]) // updated
    // a token without push access: the label is dropped, so the next run finds the issue by title
    github.issues.length = 0
    github.dropLabels = true
    await monitorRun([route('web', 'failed')])
    await monitorRun([route('web', 'failed')])
    const pull = github.addIssue({
      title: 'the pull request',
      pull_request: { url: 'https://x/1' }
    })
    expect(pull.number).toBe(PULL)
    const report = buildReport({ mode: 'gate', routes: [route('web', 'ready')], toolVersion: 't' })
    for (let i = 0; i < 101; i++) {
      github.comments.push({
        id: 5000 + i,
        issue_number: pull.number,
        body: `comment ${i}`,
        created_at: '2026-12-01T00:00:00Z',
        updated_at: '2026-12-01T00:00:00Z'
      })
    }
    await commentOnPullRequest(gate, report, env, logger) // two pages, then created
    await commentOnPullRequest(gate, report, env, logger) // found again, updated
    expect(github.comments.filter((c) => c.body.includes('route-gate'))).toHaveLength(1)
    expect(github.contractProblems).toEqual([])
    expect([...new Set(github.operations)].sort()).toEqual([
      'graphql/viewer',
      'issues/create',
      'issues/create-comment',
      'issues/list-comments',
      'issues/list-for-repo',
      'issues/update',
      'issues/update-comment',
      'search/issues-and-pull-requests',
      'users/get-authenticated'
    ])
  })

  it("answered with GitHub's errors are documented too", async () => {
    github.failNext({ status: 403, message: 'Resource not accessible by integration' })
    const tracking = (await openTracking(monitor, env, logger)) as Tracking
    expect(tracking.error).toContain('GitHub answered 403')
    expect(github.contractProblems).toEqual([])
  })
})

describe('the contract check', () => {
  const ok = { query: {}, body: undefined, status: 200 }
  const problems = (e: Parameters<typeof checkExchange>[0]) => checkExchange(e).problems

  it('rejects an operation GitHub does not have', () => {
    expect(
      problems({ ...ok, method: 'GET', path: '/repos/acme/shop/tracking', response: {} })
    ).toEqual(['GET /repos/acme/shop/tracking is no documented operation'])
  })

  it('rejects undocumented and badly typed parameters', () => {
    const found = problems({
      ...ok,
      method: 'GET',
      path: '/repos/acme/shop/issues',
      query: { state: 'any', per_page: 'many', label: 'route-gate' },
      response: []
    })
    expect(found).toHaveLength(3)
    expect(found.join('\n')).toMatch(/parameter state=any/)
    expect(found.join('\n')).toMatch(/parameter per_page=many/)
    expect(found.join('\n')).toMatch(/query parameter label is not documented/)
  })

  it('rejects a body the operation does not accept', () => {
    const found = problems({
      ...ok,
      method: 'PATCH',
      path: '/repos/acme/shop/issues/3',
      body: { state: 'resolved' },
      status: 200,
      response: undefined
    })
    expect(found.join('\n')).toMatch(/issues\/update .*request body: \/state must be equal to one/)
  })

  it('rejects an answer missing what GitHub always sends, or a status it never sends', () => {
    const comment = problems({
      ...ok,
      method: 'POST',
      path: '/repos/acme/shop/issues/3/comments',
      body: { body: 'x' },
      status: 201,
      response: { id: 1, body: 'x' }
    })
    expect(comment.join('\n')).toMatch(/issues\/create-comment .*201 response: .*required property/)
    const teapot = problems({
      ...ok,
      method: 'GET',
      path: '/search/issues',
      query: { q: 'x' },
      status: 418,
      response: {}
    })
    expect(teapot).toEqual([
      'search/issues-and-pull-requests (GET /search/issues): answered 418, which the operation does not document'
    ])
  })
})
