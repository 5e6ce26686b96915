// The gate's pull request comment against a loopback GitHub API.
import { mkdtemp, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { commentMarker } from '../../../src/github/comment.ts'
import { commentOnPullRequest, type Logger } from '../../../src/github/conversations.ts'
import { pullRequestNumber } from '../../../src/github/context.ts'
import { parseSettings } from '../../../src/inputs/parse.ts'
import { buildReport } from '../../../src/model/report.ts'
import type { RouteResult } from '../../../src/model/types.ts'
import { FakeGitHub } from '../../helpers/fake-github.ts'
import { route } from '../../fixtures/monitor/reports.ts'

let github: FakeGitHub
let env: NodeJS.ProcessEnv
const lines: string[] = []
const logger: Logger = {
  info: (m) => lines.push(`info ${m}`),
  warning: (m) => lines.push(`warning ${m}`)
}
const settings = parseSettings(
  (name) => ({ routes: 'httproute/web', comment: 'true', 'github-token': 'ghs_x' })[name],
  'gate'
)

async function eventFile(payload: unknown): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-event-'))
  const file = path.join(dir, 'event.json')
  await writeFile(file, JSON.stringify(payload))
  return file
}

const gateReport = (routes: RouteResult[]) =>
  buildReport({ mode: 'gate', routes, toolVersion: 'test' })

beforeEach(async () => {
  github = new FakeGitHub()
  env = {
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_API_URL: await github.start(),
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: await eventFile({ action: 'synchronize', pull_request: { number: 7 } }),
    GITHUB_WORKFLOW: 'deploy',
    GITHUB_JOB: 'routes',
    GITHUB_RUN_ID: '9'
  }
  for (let i = 0; i < 6; i++) github.addIssue({ title: `issue ${i + 1}` })
  github.addIssue({ title: 'the pull request', pull_request: { url: 'x' } })
  lines.length = 0
})
afterEach(() => github.stop())

describe('the pull request comment', () => {
  it("never edits a comment an outsider wrote with the job's marker", async () => {
    github.comments.push({
      id: 900,
      issue_number: 7,
      body: `${commentMarker('deploy / routes')}\nforged`,
      created_at: '2026-12-01T00:00:00Z',
      updated_at: '2026-12-01T00:00:00Z',
      user: { login: 'mallory', id: 666, type: 'User' },
      author_association: 'CONTRIBUTOR'
    })
    await commentOnPullRequest(settings, gateReport([route('web', 'failed')]), env, logger)
    expect(github.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /repos/acme/shop/issues/7/comments'
    ])
    expect(github.comments[0]!.body).toContain('forged')
  })

  it("never edits an org member's comment with the marker, only a repository writer's", async () => {
    const marked = (id: number, login: string) => ({
      id,
      issue_number: 7,
      body: `${commentMarker('deploy / routes')}\nplanted by ${login}`,
      created_at: '2026-12-01T00:00:00Z',
      updated_at: '2026-12-01T00:00:00Z',
      user: { login, id, type: 'User' as const },
      author_association: 'MEMBER'
    })
    github.comments.push(marked(903, 'member'))
    github.permissions.set('member', 'read')
    await commentOnPullRequest(settings, gateReport([route('web', 'failed')]), env, logger)
    expect(github.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /repos/acme/shop/issues/7/comments'
    ])
    expect(github.comments.find((c) => c.id === 903)!.body).toContain('planted by member')

    github.comments.length = 0
    github.comments.push(marked(904, 'maintainer'))
    github.permissions.set('maintainer', 'write')
    github.requests.length = 0
    await commentOnPullRequest(settings, gateReport([route('web', 'ready')]), env, logger)
    expect(github.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      'PATCH /repos/acme/shop/issues/comments/904'
    ])
  })

  it("never edits another bot's comment, nor one that quotes the marker after its start", async () => {
    const marker = commentMarker('deploy / routes')
    github.comments.push(
      {
        id: 901,
        issue_number: 7,
        body: `${marker}\nfrom another app`,
        created_at: '2026-12-01T00:00:00Z',
        updated_at: '2026-12-01T00:00:00Z',
        user: { login: 'some-app[bot]', id: 555, type: 'Bot' },
        author_association: 'NONE'
      },
      {
        id: 902,
        issue_number: 7,
        body: `quoting the gate:\n${marker}\nend`,
        created_at: '2026-12-01T00:00:00Z',
        updated_at: '2026-12-01T00:00:00Z',
        user: { login: 'maintainer', id: 5, type: 'User' },
        author_association: 'OWNER'
      }
    )
    await commentOnPullRequest(settings, gateReport([route('web', 'failed')]), env, logger)
    expect(github.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /repos/acme/shop/issues/7/comments'
    ])
    expect(github.comments.find((c) => c.id === 901)!.body).toBe(`${marker}\nfrom another app`)
    expect(github.comments.find((c) => c.id === 902)!.body).toBe(
      `quoting the gate:\n${marker}\nend`
    )
  })

  it('is posted once and updated in place on a re-run of the same job', async () => {
    // another bot's comment must stay untouched
    await commentOnPullRequest(settings, gateReport([route('web', 'failed')]), env, logger)
    expect(github.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /repos/acme/shop/issues/7/comments'
    ])
    const first = github.comments[0]!
    expect(first.body.startsWith(commentMarker('deploy / routes'))).toBe(true)
    expect(first.body).toContain('route-gate: 0 of 1 Route ready')
    expect(first.body).toContain('Label the namespace or change allowedRoutes on the listener.')

    github.requests.length = 0
    await commentOnPullRequest(settings, gateReport([route('web', 'ready')]), env, logger)
    expect(github.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /repos/acme/shop/issues/7/comments',
      // whose comment it is: the workflow's token is refused /user; GraphQL's viewer names its bot
      'GET /user',
      'POST /graphql',
      `PATCH /repos/acme/shop/issues/comments/${first.id}`
    ])
    expect(github.comments).toHaveLength(1)
    expect(github.comments[0]!.body).toContain('✅ route-gate: 1 of 1 Route ready')
    expect(lines.at(-1)).toMatch(/^info Pull request #7: comment updated/)
  })

  it("with an App's installation token and github-app-login, updates its own comment in place", async () => {
    github.installation = { login: 'route-deployer[bot]', id: 9001 }
    const app = parseSettings(
      (name) =>
        ({
          routes: 'httproute/web',
          comment: 'true',
          'github-token': 'ghs_app',
          'github-app-login': 'route-deployer[bot]'
        })[name],
      'gate'
    )
    await commentOnPullRequest(app, gateReport([route('web', 'failed')]), env, logger)
    await commentOnPullRequest(app, gateReport([route('web', 'ready')]), env, logger)
    expect(github.comments).toHaveLength(1)
    expect(github.comments[0]!.user?.login).toBe('route-deployer[bot]')
    expect(github.comments[0]!.body).toContain('✅ route-gate: 1 of 1 Route ready')
  })

  it('keeps one comment per workflow job and leaves other comments alone', async () => {
    github.comments.push({
      id: 1,
      issue_number: 7,
      body: 'LGTM',
      created_at: '2026-12-01T00:00:00Z',
      updated_at: '2026-12-01T00:00:00Z'
    })
    await commentOnPullRequest(settings, gateReport([route('web', 'ready')]), env, logger)
    await commentOnPullRequest(
      settings,
      gateReport([route('web', 'ready')]),
      {
        ...env,
        GITHUB_JOB: 'routes-eu'
      },
      logger
    )
    expect(github.comments.map((c) => c.body.slice(0, 40))).toHaveLength(3)
    expect(github.comments[0]!.body).toBe('LGTM')
    expect(github.writes().every((r) => r.method === 'POST')).toBe(true)
  })

  it('finds its comment beyond the first page', async () => {
    for (let i = 0; i < 120; i++) {
      github.comments.push({
        id: 100 + i,
        issue_number: 7,
        body: `c${i}`,
        created_at: '2026-12-01T00:00:00Z',
        updated_at: '2026-12-01T00:00:00Z'
      })
    }
    await commentOnPullRequest(settings, gateReport([route('web', 'ready')]), env, logger)
    github.requests.length = 0
    await commentOnPullRequest(settings, gateReport([route('web', 'ready')]), env, logger)
    const pages = github.requests.filter((r) => r.path.endsWith('/comments'))
    expect(pages.map((r) => r.query.page ?? '1')).toEqual(['1', '2'])
    expect(github.writes()).toHaveLength(1)
    expect(github.writes()[0]!.method).toBe('PATCH')
  })

  it('posts nothing when the event has no pull request', async () => {
    const push = {
      ...env,
      GITHUB_EVENT_NAME: 'push',
      GITHUB_EVENT_PATH: await eventFile({ ref: 'refs/heads/main' })
    }
    await commentOnPullRequest(settings, gateReport([route('web', 'failed')]), push, logger)
    expect(github.requests).toEqual([])
    expect(lines).toEqual(['info comment: the push event has no pull request; nothing posted'])
  })

  it('turns a refused comment into a warning that names the permission', async () => {
    github.failNext({
      status: 403,
      message: 'Resource not accessible by integration',
      match: /^POST /
    })
    await commentOnPullRequest(settings, gateReport([route('web', 'failed')]), env, logger)
    const warning = lines.at(-1)!
    expect(warning).toMatch(/^warning Could not comment on pull request #7: GitHub answered 403/)
    expect(warning).toContain('Resource not accessible by integration')
    expect(warning).toContain('`permissions: pull-requests: write`')
  })
})

describe('pullRequestNumber', () => {
  it('reads pull_request events and comments on pull requests, and nothing else', async () => {
    const of = async (payload: unknown) =>
      pullRequestNumber({ GITHUB_EVENT_PATH: await eventFile(payload) })
    expect(await of({ pull_request: { number: 12 } })).toBe(12)
    expect(await of({ issue: { number: 5, pull_request: { url: 'x' } } })).toBe(5)
    expect(await of({ issue: { number: 5 } })).toBeUndefined()
    expect(await of({ pull_request: { number: 'x' } })).toBeUndefined()
    expect(
      await pullRequestNumber({ GITHUB_EVENT_PATH: '/nonexistent/event.json' })
    ).toBeUndefined()
    expect(await pullRequestNumber({})).toBeUndefined()
  })
})
