// Whose issues and comments route-gate may adopt. Its hidden marker can be written by anyone (and
// quoted by a controller message inside another cluster's issue), so an item counts only when the
// token in use wrote it, or an account with write access to the repository did. Author association
// says neither: MEMBER is any member of the organization, COLLABORATOR may be read-only. Any other
// account of type Bot is a stranger: Dependabot or another App's token must not plant route-gate's state.
import { GitHubError, type Octokit, type Repo } from './client.ts'

export interface Authored {
  user?: { login?: string; type?: string } | null
}

export type Trust = (item: Authored) => Promise<boolean>

// the legacy base roles the permission endpoint answers (maintain is reported as write)
const WRITERS = new Set(['admin', 'write'])
/** Distinct authors whose permission is asked: beyond, a stranger (a pull request has many). */
export const MAX_PERMISSION_LOOKUPS = 20

function refusedToIntegration(error: unknown): boolean {
  const { status, message } = (error ?? {}) as { status?: unknown; message?: unknown }
  return status === 403 && /not accessible by integration/i.test(String(message))
}

/**
 * An installation token's own account, from GraphQL's viewer: the workflow's GITHUB_TOKEN and an
 * App's token are both refused GET /user, and guessing github-actions[bot] would let any workflow's
 * GITHUB_TOKEN plant state for an App's runs. Undefined when GitHub does not say: trust no login.
 */
async function viewerLogin(octokit: Octokit): Promise<string | undefined> {
  try {
    const data = await octokit.graphql<{ viewer?: { login?: unknown } }>(
      'query { viewer { login } }'
    )
    const login = data.viewer?.login
    return typeof login === 'string' && login !== '' ? login : undefined
  } catch {
    return undefined
  }
}

/**
 * The login of the token in use: GET /user for a user's token; for an installation token, the App's
 * bot login the workflow names (github-app-login), else the one GraphQL's viewer gives.
 */
async function tokenLogin(
  octokit: Octokit,
  appLogin: string | undefined
): Promise<string | undefined> {
  try {
    const { data } = await octokit.rest.users.getAuthenticated()
    return data.login
  } catch (error) {
    if (!refusedToIntegration(error)) {
      throw new GitHubError("read the token's own account", error, 'issues: write')
    }
  }
  return appLogin ?? (await viewerLogin(octokit))
}

/** Whether `login` may push to the repository; not a collaborator (404) is no. */
async function canWrite(octokit: Octokit, repo: Repo, login: string): Promise<boolean> {
  try {
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
      ...repo,
      username: login
    })
    return WRITERS.has(data.permission)
  } catch (error) {
    const status = (error as { status?: unknown } | null)?.status
    if (status === 404) return false
    throw new GitHubError(`read ${login}'s permission on the repository`, error, 'metadata: read')
  }
}

export async function trustOf(octokit: Octokit, repo: Repo, appLogin?: string): Promise<Trust> {
  const own = (await tokenLogin(octokit, appLogin))?.toLowerCase()
  const asked = new Map<string, Promise<boolean>>()
  return async (item) => {
    const login = item.user?.login
    if (login === undefined || login === '') return false
    const key = login.toLowerCase()
    if (key === own) return true
    if (item.user?.type !== 'User') return false
    let answer = asked.get(key)
    if (answer === undefined) {
      if (asked.size >= MAX_PERMISSION_LOOKUPS) return false
      answer = canWrite(octokit, repo, login)
      asked.set(key, answer)
    }
    return answer
  }
}

/** The items `trust` accepts, in order, asked one at a time. */
export async function trusted<T extends Authored>(items: T[], trust: Trust): Promise<T[]> {
  const out: T[] = []
  for (const item of items) if (await trust(item)) out.push(item)
  return out
}
