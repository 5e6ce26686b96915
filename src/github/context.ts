// What route-gate needs to know about the workflow run, read from the runner's environment and the
// event file when asked (never at import).
import { readFile } from 'node:fs/promises'
import type { Repo } from './client.ts'

export interface RunContext {
  repo: Repo
  apiUrl: string
  /** link to this workflow run, when the runner says which it is */
  runUrl?: string
  /** "<workflow> / <job>": one pull request comment per workflow job */
  job: string
}

/** The run's repository and links, or why there are none (outside GitHub Actions, or a bad value). */
export function runContext(env: NodeJS.ProcessEnv): RunContext | string {
  if (env.GITHUB_REPOSITORY === undefined || env.GITHUB_REPOSITORY === '') {
    return 'No GITHUB_REPOSITORY'
  }
  const [owner, repo, ...rest] = env.GITHUB_REPOSITORY.split('/')
  if (!owner || !repo || rest.length > 0 || /\s/.test(env.GITHUB_REPOSITORY)) {
    return `GITHUB_REPOSITORY is ${JSON.stringify(env.GITHUB_REPOSITORY)}, not owner/repo`
  }
  const server = (env.GITHUB_SERVER_URL ?? 'https://github.com').replace(/\/+$/, '')
  return {
    repo: { owner, repo },
    apiUrl: env.GITHUB_API_URL ?? 'https://api.github.com',
    runUrl: env.GITHUB_RUN_ID
      ? `${server}/${owner}/${repo}/actions/runs/${env.GITHUB_RUN_ID}`
      : undefined,
    job: `${env.GITHUB_WORKFLOW ?? 'workflow'} / ${env.GITHUB_JOB ?? 'job'}`
  }
}

/** The number of the pull request the event is about, if any (pull_request, pull_request_target, …). */
export async function pullRequestNumber(env: NodeJS.ProcessEnv): Promise<number | undefined> {
  if (!env.GITHUB_EVENT_PATH) return undefined
  let payload: unknown
  try {
    payload = JSON.parse(await readFile(env.GITHUB_EVENT_PATH, 'utf8'))
  } catch {
    return undefined
  }
  const event = (payload ?? {}) as {
    pull_request?: { number?: unknown }
    issue?: { number?: unknown; pull_request?: unknown }
  }
  const number =
    event.pull_request?.number ??
    (event.issue?.pull_request === undefined ? undefined : event.issue.number)
  return typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : undefined
}
