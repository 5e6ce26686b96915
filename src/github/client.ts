// The GitHub REST client and what its failures mean to the user. @actions/github reads the event
// file when it is imported, so it is imported here on first use only, never by the CLI.
import type { GitHub } from '@actions/github/lib/utils'

export type Octokit = InstanceType<typeof GitHub>

export interface Repo {
  owner: string
  repo: string
}

/** The REST client for `apiUrl` (GITHUB_API_URL on GitHub Enterprise Server and in tests). */
export async function createOctokit(token: string, apiUrl: string): Promise<Octokit> {
  const { getOctokit } = await import('@actions/github')
  return getOctokit(token, { baseUrl: apiUrl.replace(/\/+$/, '') })
}

/** A GitHub API failure, said as what route-gate was doing, what GitHub answered and what to do. */
export class GitHubError extends Error {
  override name = 'GitHubError'
  readonly status: number | undefined

  constructor(doing: string, error: unknown, permission: string) {
    const status = statusOf(error)
    super(`Could not ${doing}: ${explain(error, status, permission)}`)
    this.status = status
  }
}

/** Runs one API call; a failure becomes a GitHubError that says what was being done. */
export async function call<T>(doing: string, permission: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    throw new GitHubError(doing, error, permission)
  }
}

interface ErrorShape {
  status?: unknown
  message?: unknown
  response?: { headers?: Record<string, string | number | undefined> }
}

function statusOf(error: unknown): number | undefined {
  const status = (error as ErrorShape | null)?.status
  return typeof status === 'number' ? status : undefined
}

function explain(error: unknown, status: number | undefined, permission: string): string {
  const shape = (error ?? {}) as ErrorShape
  const headers = shape.response?.headers ?? {}
  const message = typeof shape.message === 'string' ? shape.message : String(error)
  const answer = status === undefined ? message : `GitHub answered ${status}: ${message}`
  if ((status === 403 || status === 429) && String(headers['x-ratelimit-remaining']) === '0') {
    const reset = Number(headers['x-ratelimit-reset'])
    const when =
      Number.isFinite(reset) && reset > 0 ? ` until ${new Date(reset * 1000).toISOString()}` : ''
    return `${answer}. The API rate limit of this token is used up${when}; the next scheduled run will try again.`
  }
  if (
    (status === 403 || status === 429) &&
    (headers['retry-after'] !== undefined || /secondary rate limit/i.test(message))
  ) {
    const after =
      headers['retry-after'] === undefined ? '' : ` (retry after ${headers['retry-after']}s)`
    return `${answer}. GitHub's secondary rate limit stopped the request${after}; the next run will try again.`
  }
  if (status === 401) return `${answer}. The token was refused: check the github-token input.`
  if (status === 403) {
    return `${answer}. The token lacks a permission: give the job \`permissions: ${permission}\` (pull requests from forks get a read-only token).`
  }
  if (status === 404) {
    return `${answer}. The repository or item does not exist, or the token cannot see it (\`permissions: ${permission}\`).`
  }
  if (status === 410) return `${answer}. Issues are disabled on this repository.`
  return answer
}
