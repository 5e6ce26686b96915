// Whose issues and comments route-gate may adopt. Its hidden marker can be written by anyone (and
// quoted by a controller message inside another cluster's issue), so an item counts only when the
// token in use wrote it, or someone with write access to the repository did. Any other account of
// type Bot is a stranger: a Dependabot or another app's token must not plant route-gate's state.
import { GitHubError, type Octokit } from './client.ts'

export interface Authored {
  user?: { login?: string; type?: string } | null
  author_association?: string
}

export type Trust = (item: Authored) => boolean

// The workflow's GITHUB_TOKEN writes as this account; GET /user refuses installation tokens.
export const ACTIONS_BOT = 'github-actions[bot]'
const WRITERS = ['OWNER', 'MEMBER', 'COLLABORATOR']

/**
 * The login of the token in use: GET /user; for an installation token, which GET /user refuses, the
 * App's bot login the workflow names (github-app-login), else the workflow's own bot.
 */
async function tokenLogin(octokit: Octokit, appLogin: string | undefined): Promise<string> {
  try {
    const { data } = await octokit.rest.users.getAuthenticated()
    return data.login
  } catch (error) {
    // GITHUB_TOKEN, which writes as github-actions[bot], may not read /user
    const { status, message } = (error ?? {}) as { status?: unknown; message?: unknown }
    if (status === 403 && /not accessible by integration/i.test(String(message))) {
      return appLogin ?? ACTIONS_BOT
    }
    throw new GitHubError("read the token's own account", error, 'issues: write')
  }
}

export async function trustOf(octokit: Octokit, appLogin?: string): Promise<Trust> {
  const login = (await tokenLogin(octokit, appLogin)).toLowerCase()
  return (item) =>
    item.user?.login?.toLowerCase() === login || WRITERS.includes(item.author_association ?? '')
}
