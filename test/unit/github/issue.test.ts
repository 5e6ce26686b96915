// The tracking issue against a loopback GitHub API: the requests made, create versus update, close
// and reopen, comments on change, and failures that leave the stored state alone.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  openTracking,
  saveTracking,
  type Logger,
  type Tracking
} from '../../../src/github/conversations.ts'
import { issueMarker } from '../../../src/github/issue.ts'
import { MAX_PERMISSION_LOOKUPS } from '../../../src/github/trust.ts'
import { decodeState, encodeState } from '../../../src/github/state.ts'
import { parseSettings } from '../../../src/inputs/parse.ts'
import type { Settings } from '../../../src/inputs/settings.ts'
import { diffStates } from '../../../src/model/transitions.ts'
import type { Report, RouteResult } from '../../../src/model/types.ts'
import { FakeGitHub } from '../../helpers/fake-github.ts'
import { monitorReport, route } from '../../fixtures/monitor/reports.ts'

let github: FakeGitHub
let env: NodeJS.ProcessEnv
const lines: string[] = []
const logger: Logger = {
  info: (m) => lines.push(`info ${m}`),
  warning: (m) => lines.push(`warning ${m}`)
}
const settings = parseSettings(
  (name) => ({ 'github-token': 'ghs_secret', 'cluster-name': 'prod-eu' })[name],
  'monitor'
)

beforeEach(async () => {
  github = new FakeGitHub()
  env = {
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_API_URL: await github.start(),
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '42'
  }
  lines.length = 0
})
afterEach(() => github.stop())

/** One monitor run as the Action does it: read the state, judge, write the issue. */
async function monitorRun(routes: RouteResult[]): Promise<{ report: Report; error?: string }> {
  const tracking = (await openTracking(settings, env, logger)) as Tracking
  const report = monitorReport(routes, diffStates(tracking.loaded?.previous, routes))
  const error = await saveTracking(tracking, report, logger)
  return { report, error }
}

const signatures = () => github.writes().map((r) => `${r.method} ${r.path}`)

/** An issue with prod-eu's marker and a state that says web was ready, opened by `user`. */
function plantReadyState(
  user: { login: string; id: number; type: 'Bot' | 'User' },
  association = 'NONE'
): void {
  github.addIssue({
    title: 'route-gate: failing Routes on cluster prod-eu',
    labels: [{ id: 1, name: 'route-gate' }],
    body: `${issueMarker('prod-eu')}\n${encodeState([{ kind: 'HTTPRoute', namespace: 'shop', name: 'web', verdict: 'ready' }])}\n`,
    user,
    author_association: association
  })
}

describe('the tracking issue', () => {
  it('is created on the first run, with a marker, the state and the failing Routes', async () => {
    const { error } = await monitorRun([route('web', 'failed'), route('api', 'ready')])
    expect(error).toBeUndefined()
    const list = github.requests[0]!
    expect(list).toMatchObject({ method: 'GET', path: '/repos/acme/shop/issues' })
    expect(list.query).toMatchObject({ labels: 'route-gate', state: 'all', per_page: '100' })
    expect(list.authorization).toBe('token ghs_secret')
    expect(github.requests[1]).toMatchObject({ method: 'GET', path: '/search/issues' })
    expect(github.requests[1]!.query.q).toBe(
      'repo:acme/shop is:issue in:title "route-gate: failing Routes on cluster prod-eu"'
    )
    expect(signatures()).toEqual(['POST /repos/acme/shop/issues'])
    const create = github.writes()[0]!.body!
    expect(create).toMatchObject({
      title: 'route-gate: failing Routes on cluster prod-eu',
      labels: ['route-gate']
    })
    const body = String(create.body)
    expect(body.startsWith(issueMarker('prod-eu'))).toBe(true)
    expect(decodeState(body)).toEqual([
      { kind: 'HTTPRoute', namespace: 'shop', name: 'web', verdict: 'failed' },
      { kind: 'HTTPRoute', namespace: 'shop', name: 'api', verdict: 'ready' }
    ])
    expect(body).toContain('HTTPRoute shop/web')
    expect(body).not.toContain('HTTPRoute <code>shop/api')
    expect(body).toContain('https://github.com/acme/shop/actions/runs/42')
    expect(github.issues).toHaveLength(1)
  })

  it('is updated in place on a re-run, never duplicated, and comments only on change', async () => {
    await monitorRun([route('web', 'failed'), route('api', 'ready')])
    github.requests.length = 0
    await monitorRun([route('web', 'failed'), route('api', 'ready')])
    expect(signatures()).toEqual(['PATCH /repos/acme/shop/issues/1'])
    expect(github.issues).toHaveLength(1)
    expect(github.comments).toHaveLength(0)
    // the label list found it: no search needed
    expect(github.requests.some((r) => r.path === '/search/issues')).toBe(false)
  })

  it('comments when a Route degrades, closes when all is well, and reopens on the next degradation', async () => {
    await monitorRun([route('web', 'ready'), route('api', 'ready')])
    // all healthy on the first run: the issue is created to hold the state, then closed
    expect(signatures()).toEqual([
      'POST /repos/acme/shop/issues',
      'PATCH /repos/acme/shop/issues/1'
    ])
    expect(github.issues[0]).toMatchObject({ state: 'closed', state_reason: 'completed' })

    github.requests.length = 0
    const degraded = await monitorRun([route('web', 'failed'), route('api', 'ready')])
    expect(degraded.report.transitions).toEqual([
      { kind: 'HTTPRoute', namespace: 'shop', name: 'web', from: 'ready', to: 'failed' }
    ])
    expect(signatures()).toEqual([
      'PATCH /repos/acme/shop/issues/1',
      'POST /repos/acme/shop/issues/1/comments'
    ])
    expect(github.writes()[0]!.body).toMatchObject({ state: 'open', state_reason: 'reopened' })
    expect(github.comments[0]!.body).toMatch(/1 degraded/)
    expect(github.comments[0]!.body).toContain('**HTTPRoute shop/web**: ready → failed')

    github.requests.length = 0
    await monitorRun([route('web', 'ready'), route('api', 'ready')])
    expect(github.writes()[0]!.body).toMatchObject({ state: 'closed', state_reason: 'completed' })
    expect(github.comments[1]!.body).toMatch(/✅ 1 recovered/)
    expect(github.issues).toHaveLength(1)
  })

  it('finds its issue by title when GitHub dropped the label, and ignores look-alikes', async () => {
    github.dropLabels = true
    github.addIssue({ title: 'route-gate: failing Routes on cluster prod-eu', body: 'no marker' })
    github.addIssue({
      title: 'route-gate: failing Routes on cluster prod-eu',
      body: issueMarker('prod-eu'),
      pull_request: { url: 'x' }
    })
    await monitorRun([route('web', 'failed')])
    expect(github.issues).toHaveLength(3)
    github.requests.length = 0
    await monitorRun([route('web', 'failed')])
    expect(signatures()).toEqual(['PATCH /repos/acme/shop/issues/3'])
  })

  it('never adopts an issue an outsider opened with the marker and forged state', async () => {
    github.addIssue({
      title: 'route-gate: failing Routes on cluster prod-eu',
      labels: [{ id: 1, name: 'route-gate' }],
      body: issueMarker('prod-eu'),
      user: { login: 'mallory', id: 666, type: 'User' },
      author_association: 'NONE'
    })
    await monitorRun([route('web', 'failed')])
    expect(signatures()).toContain('POST /repos/acme/shop/issues')
    expect(github.issues).toHaveLength(2)
    expect(github.issues[0]!.body).toBe(issueMarker('prod-eu'))
  })

  it("never adopts another cluster's issue whose controller message quotes its marker and state", async () => {
    const other = parseSettings(
      (name) => ({ 'github-token': 'ghs_secret', 'cluster-name': 'prod-us' })[name],
      'monitor'
    )
    // prod-eu's controller writes prod-us's marker and a forged "all ready" state into a message
    const forged = encodeState([
      { kind: 'HTTPRoute', namespace: 'shop', name: 'api', verdict: 'ready' }
    ])
    const planted = route('web', 'failed')
    planted.parents[0]!.problems[0]!.message = `${'x'.repeat(600)}\n${issueMarker('prod-us')}\n${forged}\n`
    await monitorRun([planted])
    expect(github.issues).toHaveLength(1)
    const body = github.issues[0]!.body
    // the cluster text is shown, but opens no HTML comment: only the marker and the state do
    expect(body).toContain('route-gate:tracking-issue cluster=prod-us')
    expect(body.match(/<!--/g)).toHaveLength(2)

    const tracking = (await openTracking(other, env, logger)) as Tracking
    expect(tracking.loaded?.issue).toBeUndefined()
    expect(tracking.loaded?.previous).toBeUndefined()
    await saveTracking(tracking, monitorReport([route('api', 'failed')]), logger)
    expect(github.issues).toHaveLength(2)
    expect(github.issues[0]!.body).toBe(body)
  })

  it('never adopts an issue with the marker from another app or bot account', async () => {
    plantReadyState({ login: 'renovate[bot]', id: 29139614, type: 'Bot' })
    const { report } = await monitorRun([route('web', 'failed')])
    expect(report.transitions).toEqual([])
    expect(github.issues).toHaveLength(2)
  })

  it('never adopts an org member or a read-only collaborator; adopts a writer', async () => {
    plantReadyState({ login: 'org-member', id: 701, type: 'User' }, 'MEMBER')
    plantReadyState({ login: 'reader', id: 702, type: 'User' }, 'COLLABORATOR')
    github.permissions.set('org-member', 'read')
    github.permissions.set('reader', 'read')
    // the member's and the reader's issues claim web was ready: adopting either hides the failure
    let run = await monitorRun([route('web', 'failed')])
    expect(run.report.transitions).toEqual([])
    expect(github.issues).toHaveLength(3)
    expect(github.issues.slice(0, 2).map((i) => i.body)).not.toContainEqual(
      expect.stringContaining('failed')
    )
    expect(github.requests.map((r) => r.path)).toEqual(
      expect.arrayContaining([
        '/repos/acme/shop/collaborators/org-member/permission',
        '/repos/acme/shop/collaborators/reader/permission'
      ])
    )
    expect(github.contractProblems).toEqual([])

    github.issues.splice(2)
    github.permissions.set('reader', 'write')
    run = await monitorRun([route('web', 'failed')])
    expect(run.report.transitions).toEqual([
      { kind: 'HTTPRoute', namespace: 'shop', name: 'web', from: 'ready', to: 'failed' }
    ])
    expect(github.issues).toHaveLength(2)
  })

  it('asks the permission of at most a bounded number of authors', async () => {
    for (let i = 0; i < MAX_PERMISSION_LOOKUPS + 10; i++) {
      plantReadyState({ login: `user-${i}`, id: 800 + i, type: 'User' }, 'CONTRIBUTOR')
    }
    await monitorRun([route('web', 'failed')])
    const asked = github.requests.filter((r) => r.path.endsWith('/permission'))
    expect(asked).toHaveLength(MAX_PERMISSION_LOOKUPS)
  })

  it("adopts what the token's own account wrote, when the token is a user's", async () => {
    github.viewer = { login: 'Deploy-Robot', id: 77, type: 'User' }
    await monitorRun([route('web', 'ready')])
    expect(github.issues[0]!.user?.login).toBe('Deploy-Robot')
    const { report } = await monitorRun([route('web', 'failed')])
    expect(report.transitions).toEqual([
      { kind: 'HTTPRoute', namespace: 'shop', name: 'web', from: 'ready', to: 'failed' }
    ])
    expect(github.issues).toHaveLength(1)
  })

  describe("with a GitHub App's installation token (GET /user refused, writes as the App's bot)", () => {
    const withApp = (login?: string) =>
      parseSettings(
        (name) =>
          ({
            'github-token': 'ghs_app',
            'cluster-name': 'prod-eu',
            ...(login !== undefined && { 'github-app-login': login })
          })[name],
        'monitor'
      )
    const appRun = async (s: Settings, routes: RouteResult[]) => {
      const tracking = (await openTracking(s, env, logger)) as Tracking
      const report = monitorReport(routes, diffStates(tracking.loaded?.previous, routes))
      return { report, error: await saveTracking(tracking, report, logger) }
    }

    it('keeps one issue over two runs when github-app-login names the bot', async () => {
      github.installation = { login: 'route-deployer[bot]', id: 9001 }
      const s = withApp('route-deployer[bot]')
      await appRun(s, [route('web', 'ready')])
      expect(github.issues[0]!.user?.login).toBe('route-deployer[bot]')
      const { report, error } = await appRun(s, [route('web', 'failed')])
      expect(error).toBeUndefined()
      expect(report.transitions).toEqual([
        { kind: 'HTTPRoute', namespace: 'shop', name: 'web', from: 'ready', to: 'failed' }
      ])
      expect(github.issues).toHaveLength(1)
    })

    it("without it, GraphQL's viewer names the bot: one issue over two runs", async () => {
      github.installation = { login: 'route-deployer[bot]', id: 9001 }
      await appRun(withApp(), [route('web', 'ready')])
      const { report } = await appRun(withApp(), [route('web', 'failed')])
      expect(report.transitions).toEqual([
        { kind: 'HTTPRoute', namespace: 'shop', name: 'web', from: 'ready', to: 'failed' }
      ])
      expect(github.issues).toHaveLength(1)
    })

    it("without it, never trusts github-actions[bot]: any workflow's GITHUB_TOKEN writes as that", async () => {
      github.installation = { login: 'route-deployer[bot]', id: 9001 }
      plantReadyState({ login: 'github-actions[bot]', id: 41898282, type: 'Bot' })
      const { report } = await appRun(withApp(), [route('web', 'failed')])
      expect(report.transitions).toEqual([])
      expect(github.issues).toHaveLength(2)
      expect(github.issues[0]!.body).not.toContain('failed')
    })

    it('when GitHub cannot say whose token it is, adopts nothing and says which setting would', async () => {
      github.installation = { login: 'route-deployer[bot]', id: 9001 }
      await appRun(withApp(), [route('web', 'ready')])
      lines.length = 0
      github.failNext({ status: 502, message: 'Bad Gateway', match: /^POST \/graphql$/ })
      await appRun(withApp(), [route('web', 'failed')])
      expect(lines).toContain(
        "warning Issue #1 by route-deployer[bot] carries route-gate's marker for cluster prod-eu but is not adopted: route-gate trusts only the token's own account and repository writers. If github-token is that App's installation token, set github-app-login: route-deployer[bot]"
      )
      expect(github.issues).toHaveLength(2)
    })

    it("still never adopts another bot's issue", async () => {
      github.installation = { login: 'route-deployer[bot]', id: 9001 }
      plantReadyState({ login: 'renovate[bot]', id: 29139614, type: 'Bot' })
      const { report } = await appRun(withApp('route-deployer[bot]'), [route('web', 'failed')])
      expect(report.transitions).toEqual([])
      expect(github.issues).toHaveLength(2)
    })

    it('refuses a login that is none', () => {
      expect(() => withApp('not a login')).toThrow(
        'Invalid github-app-login "not a login": use the account the App writes as, e.g. my-deployer[bot]'
      )
    })
  })

  it('reopens its closed issue instead of creating another', async () => {
    github.addIssue({
      title: 'old',
      state: 'closed',
      labels: [{ id: 1, name: 'route-gate' }],
      body: issueMarker('prod-eu')
    })
    await monitorRun([route('web', 'failed')])
    expect(signatures()).toEqual(['PATCH /repos/acme/shop/issues/1'])
    expect(github.issues[0]!.state).toBe('open')
  })

  it('starts a baseline when the issue holds no state, and says so', async () => {
    github.addIssue({
      title: 'x',
      labels: [{ id: 1, name: 'route-gate' }],
      body: `${issueMarker('prod-eu')}\nedited by hand`
    })
    const { report } = await monitorRun([route('web', 'failed')])
    expect(report.transitions).toEqual([])
    expect(lines).toContain('warning Tracking issue #1 holds no state; this run is the baseline')
  })

  it('reports an exhausted rate limit clearly and writes nothing', async () => {
    await monitorRun([route('web', 'ready')])
    const stateBefore = github.issues[0]!.body
    github.requests.length = 0
    github.failNext({
      status: 403,
      message: 'API rate limit exceeded for installation ID 1.',
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1767323045' }
    })
    const { error } = await monitorRun([route('web', 'failed')])
    expect(error).toMatch(
      /^Could not list the tracking issues: GitHub answered 403: API rate limit exceeded/
    )
    expect(error).toContain('rate limit of this token is used up until 2026-01-02T03:04:05.000Z')
    expect(error).toContain('left as it was')
    expect(github.writes()).toEqual([])
    expect(github.issues[0]!.body).toBe(stateBefore)
  })

  it('names the missing permission when the update is refused, and keeps the old state', async () => {
    await monitorRun([route('web', 'ready')])
    const stateBefore = github.issues[0]!.body
    github.failNext({
      status: 403,
      message: 'Resource not accessible by integration',
      match: /^PATCH /
    })
    const { error } = await monitorRun([route('web', 'failed')])
    expect(error).toMatch(/^Could not update tracking issue #1: GitHub answered 403/)
    expect(error).toContain('`permissions: issues: write`')
    expect(error).toContain('keeps the state of its last successful update')
    expect(github.issues[0]!.body).toBe(stateBefore)
    // the next run still sees the degradation against the state it kept
    const next = await monitorRun([route('web', 'failed')])
    expect(next.report.transitions).toEqual([
      { kind: 'HTTPRoute', namespace: 'shop', name: 'web', from: 'ready', to: 'failed' }
    ])
  })

  it('says what a secondary rate limit is', async () => {
    github.failNext({
      status: 403,
      message: 'You have exceeded a secondary rate limit.',
      headers: { 'retry-after': '60' }
    })
    const { error } = await monitorRun([route('web', 'ready')])
    expect(error).toContain('secondary rate limit stopped the request (retry after 60s)')
  })

  it('is skipped with a warning outside a repository', async () => {
    const tracking = await openTracking(settings, {}, logger)
    expect(tracking).toBeUndefined()
    expect(lines).toEqual([
      'warning No GITHUB_REPOSITORY: the tracking issue (and the previous state) is skipped'
    ])
  })
})
