// The GitHub REST client and what its failures mean to the user. @actions/github reads the event
// file when it is imported, so it is imported here on first use only, never by the CLI.
import { setTimeout as sleep } from 'node:timers/promises'
import type { GitHub } from '@actions/github/lib/utils'

export type Octokit = InstanceType<typeof GitHub>

export interface Repo {
  owner: string
  repo: string
}

/** How long one API call may hold the step: a silent API must not hold it for minutes. */
export interface Limits {
  /** one request */
  attemptMs: number
  /** one call with its retries */
  callMs: number
}

export const DEFAULT_LIMITS: Limits = { attemptMs: 10_000, callMs: 30_000 }

/** The REST client for `apiUrl` (GITHUB_API_URL on GitHub Enterprise Server and in tests). */
export async function createOctokit(
  token: string,
  apiUrl: string,
  limits: Limits = DEFAULT_LIMITS
): Promise<Octokit> {
  const { getOctokit } = await import('@actions/github')
  const baseUrl = apiUrl.replace(/\/+$/, '')
  const octokit = getOctokit(token, { baseUrl })
  // Octokit's retry and throttling plugins have no bound on the whole call (the throttling plugin
  // waits as long as retry-after says) and report a connection failure as status 500; this does both.
  octokit.hook.wrap('request', async (request, options) => {
    const deadline = Date.now() + limits.callMs
    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(
        Math.max(1, Math.min(limits.attemptMs, deadline - Date.now()))
      )
      // set in place: handing Octokit a copy of the options ran this hook again instead of sending
      options.request = Object.assign(options.request ?? {}, { signal: timeout })
      try {
        return await request(options)
      } catch (error) {
        const wait = retryDelay(error, options.method, attempt)
        if (wait !== undefined && Date.now() + wait + MIN_ATTEMPT_MS <= deadline) {
          await sleep(wait)
          continue
        }
        if (!answered(error)) throw new UnreachableError(baseUrl, error, timeout.aborted, limits)
        throw error
      }
    }
  })
  return octokit
}

const MIN_ATTEMPT_MS = 1_000

/** Whether GitHub answered at all: Octokit says "500" also when no answer came (no response then). */
function answered(error: unknown): boolean {
  return (error as ErrorShape | null)?.response !== undefined
}

/**
 * How long to wait before trying again, or undefined when it must not be tried again. A request
 * GitHub refused unread (secondary rate limit, connection refused) is always safe to send again; one
 * that failed later may have been carried out, so only reads and PATCHes (idempotent) are repeated.
 */
function retryDelay(error: unknown, method: string, attempt: number): number | undefined {
  const backoff = 1_000 * 2 ** attempt
  const status = statusOf(error)
  if (secondaryRateLimit(error, status)) {
    const after = Number(headersOf(error)['retry-after'])
    return Number.isFinite(after) && after >= 0 ? after * 1_000 : backoff
  }
  if (!answered(error) && connectionRefused(error)) return backoff
  const idempotent = method !== 'POST'
  if (idempotent && (!answered(error) || (status !== undefined && status >= 500))) return backoff
  return undefined
}

function connectionRefused(error: unknown): boolean {
  let cause: unknown = error
  for (let depth = 0; depth < 4 && cause instanceof Error; depth++) {
    if ((cause as { code?: unknown }).code === 'ECONNREFUSED') return true
    cause = cause.cause
  }
  return false
}

/** No answer from GITHUB_API_URL: refused, unknown host, reset or silent past the timeout. */
export class UnreachableError extends Error {
  override name = 'UnreachableError'

  constructor(apiUrl: string, error: unknown, timedOut: boolean, limits: Limits) {
    const why = timedOut
      ? `no answer within ${limits.attemptMs / 1000} s`
      : error instanceof Error
        ? error.message
        : String(error)
    super(`could not reach GITHUB_API_URL (${apiUrl}): ${why}`)
  }
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
  return typeof status === 'number' && answered(error) ? status : undefined
}

function headersOf(error: unknown): Record<string, string | number | undefined> {
  return (error as ErrorShape | null)?.response?.headers ?? {}
}

function secondaryRateLimit(error: unknown, status: number | undefined): boolean {
  const message = (error as ErrorShape | null)?.message
  return (
    (status === 403 || status === 429) &&
    String(headersOf(error)['x-ratelimit-remaining']) !== '0' &&
    (headersOf(error)['retry-after'] !== undefined ||
      (typeof message === 'string' && /secondary rate limit/i.test(message)))
  )
}

function explain(error: unknown, status: number | undefined, permission: string): string {
  const shape = (error ?? {}) as ErrorShape
  const headers = headersOf(error)
  const message = typeof shape.message === 'string' ? shape.message : String(error)
  const answer = status === undefined ? message : `GitHub answered ${status}: ${message}`
  if ((status === 403 || status === 429) && String(headers['x-ratelimit-remaining']) === '0') {
    const reset = Number(headers['x-ratelimit-reset'])
    const when =
      Number.isFinite(reset) && reset > 0 ? ` until ${new Date(reset * 1000).toISOString()}` : ''
    return `${answer}. The API rate limit of this token is used up${when}; the next scheduled run will try again.`
  }
  if (secondaryRateLimit(error, status)) {
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
