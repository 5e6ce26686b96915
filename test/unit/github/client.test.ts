// The GitHub client's bounds: a request timeout, retries with backoff on GitHub's transient answers
// within the bound, a failure to connect said as such, and a malformed GITHUB_REPOSITORY said exactly.
import { createServer, type AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { call, createOctokit, type Limits } from '../../../src/github/client.ts'
import { openTracking, type Logger } from '../../../src/github/conversations.ts'
import { parseSettings } from '../../../src/inputs/parse.ts'
import { FakeGitHub } from '../../helpers/fake-github.ts'
import { silentServer } from '../../helpers/silent-server.ts'

let github: FakeGitHub
const repo = { owner: 'acme', repo: 'shop' }
const quick: Limits = { attemptMs: 3_000, callMs: 10_000 }

beforeEach(async () => {
  github = new FakeGitHub()
  await github.start()
})
afterEach(() => github.stop())

const listIssues = async (url: string, limits = quick) => {
  const octokit = await createOctokit('ghs_x', url, limits)
  return call('list the tracking issues', 'issues: write', () =>
    octokit.rest.issues.listForRepo({ ...repo, labels: 'route-gate', state: 'all' })
  )
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}

describe('GitHub API calls', () => {
  it('retry a read after a 5xx and succeed', async () => {
    github.addIssue({ title: 't', labels: [{ id: 1, name: 'route-gate' }] })
    github.failNext({ status: 502, message: 'Server Error', match: /^GET / })
    const { data } = await listIssues(github.url)
    expect(data.map((i) => i.title)).toEqual(['t'])
    expect(github.requests.map((r) => r.method)).toEqual(['GET', 'GET'])
  })

  it('retry a create after a secondary rate limit, and create once', async () => {
    github.failNext({
      status: 403,
      message: 'You have exceeded a secondary rate limit.',
      headers: { 'retry-after': '0' }
    })
    const octokit = await createOctokit('ghs_x', github.url, quick)
    await octokit.rest.issues.create({ ...repo, title: 'x', body: 'y' })
    expect(github.requests.map((r) => r.method)).toEqual(['POST', 'POST'])
    expect(github.issues).toHaveLength(1)
  })

  it('never repeat a create after a 5xx: GitHub may have created it', async () => {
    github.failNext({ status: 502, message: 'Server Error' })
    const octokit = await createOctokit('ghs_x', github.url, quick)
    await expect(
      call('create the tracking issue', 'issues: write', () =>
        octokit.rest.issues.create({ ...repo, title: 'x' })
      )
    ).rejects.toThrow('Could not create the tracking issue: GitHub answered 502: Server Error')
    expect(github.requests).toHaveLength(1)
  })

  it('stop retrying when the next try would not fit in the bound', async () => {
    for (let i = 0; i < 5; i++) github.failNext({ status: 503, message: 'Unavailable' })
    // waits 1 s, 2 s: a third try would start after 3 s and not fit 3.5 s with its minimum attempt
    await expect(listIssues(github.url, { attemptMs: 3_000, callMs: 3_500 })).rejects.toThrow(
      'GitHub answered 503'
    )
    expect(github.requests).toHaveLength(2)
  })

  it('say a refused connection as "could not reach GITHUB_API_URL", never as a status', async () => {
    const url = await closedPort()
    const error = await listIssues(url, { attemptMs: 500, callMs: 1_500 }).catch((e: Error) => e)
    expect((error as Error).message).toMatch(
      new RegExp(
        `^Could not list the tracking issues: could not reach GITHUB_API_URL \\(${url}\\): .*ECONNREFUSED`
      )
    )
    expect((error as Error).message).not.toMatch(/answered|500/)
  })

  it('give up on a silent API after the request timeout', async () => {
    const silent = await silentServer()
    try {
      const error = await listIssues(silent.url, { attemptMs: 300, callMs: 1_000 }).catch(
        (e: Error) => e
      )
      expect((error as Error).message).toBe(
        `Could not list the tracking issues: could not reach GITHUB_API_URL (${silent.url}): no answer within 0.3 s`
      )
      expect(silent.connections()).toBe(1)
    } finally {
      silent.close()
    }
  })
})

describe('GITHUB_REPOSITORY', () => {
  const lines: string[] = []
  const logger: Logger = {
    info: (m) => lines.push(`info ${m}`),
    warning: (m) => lines.push(`warning ${m}`)
  }
  const settings = parseSettings(
    (name) => ({ 'github-token': 'ghs_x', 'cluster-name': 'prod' })[name],
    'monitor'
  )

  it.each(['acme', 'acme/shop/extra', '/shop', 'acme/', 'acme/sh op'])(
    'that is not owner/repo (%j) is said exactly, and nothing is requested',
    async (value) => {
      lines.length = 0
      const tracking = await openTracking(
        settings,
        { GITHUB_REPOSITORY: value, GITHUB_API_URL: github.url },
        logger
      )
      expect(tracking).toBeUndefined()
      expect(lines).toEqual([
        `warning GITHUB_REPOSITORY is ${JSON.stringify(value)}, not owner/repo: the tracking issue (and the previous state) is skipped`
      ])
      expect(github.requests).toEqual([])
    }
  )
})
