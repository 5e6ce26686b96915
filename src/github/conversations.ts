// Where the Action talks on GitHub: the monitor's tracking issue and the gate's pull request comment.
// A GitHub failure is reported as what it is and never touches the verdict; the tracking issue is
// written only after its state was read, so a failed run never replaces the state with a baseline.
import type { Settings } from '../inputs/settings.ts'
import type { Report } from '../model/types.ts'
import { createOctokit, type Octokit } from './client.ts'
import { upsertPullRequestComment } from './comment.ts'
import { pullRequestNumber, runContext, type RunContext } from './context.ts'
import { IssueTracker, type Loaded } from './issue.ts'

export interface Logger {
  info(message: string): void
  warning(message: string): void
}

export interface Tracking {
  tracker: IssueTracker
  context: RunContext
  loaded?: Loaded
  /** the load failed: nothing is written this run */
  error?: string
}

async function connect(
  settings: Settings,
  env: NodeJS.ProcessEnv,
  log: Logger,
  purpose: string
): Promise<{ octokit: Octokit; context: RunContext } | undefined> {
  const context = runContext(env)
  if (typeof context === 'string') {
    log.warning(`${context}: ${purpose} is skipped`)
    return undefined
  }
  if (settings.githubToken === undefined) {
    log.warning(`No github-token: ${purpose} is skipped`)
    return undefined
  }
  return { octokit: await createOctokit(settings.githubToken, context.apiUrl), context }
}

/** Finds the tracking issue and reads the previous state from it, before the monitor runs. */
export async function openTracking(
  settings: Settings,
  env: NodeJS.ProcessEnv,
  log: Logger
): Promise<Tracking | undefined> {
  const github = await connect(settings, env, log, 'the tracking issue (and the previous state)')
  if (github === undefined) return undefined
  const tracker = new IssueTracker(
    github.octokit,
    github.context.repo,
    settings.clusterName,
    settings.githubAppLogin
  )
  try {
    const loaded = await tracker.load()
    if (loaded.warning !== undefined) log.warning(loaded.warning)
    log.info(
      loaded.issue === undefined
        ? `No tracking issue for cluster ${settings.clusterName} yet: this run is the baseline`
        : `Tracking issue #${loaded.issue.number} (${loaded.issue.state}): ${loaded.previous?.length ?? 0} Routes in its state`
    )
    return { tracker, context: github.context, loaded }
  } catch (error) {
    return { tracker, context: github.context, error: messageOf(error) }
  }
}

/** Writes this run into the tracking issue; returns an error message when that failed. */
export async function saveTracking(
  tracking: Tracking,
  report: Report,
  log: Logger
): Promise<string | undefined> {
  if (tracking.error !== undefined || tracking.loaded === undefined) {
    return `${tracking.error ?? 'the tracking issue was not read'}. The issue was left as it was, so its state is still that of its last successful update.`
  }
  try {
    const saved = await tracking.tracker.save(
      report,
      tracking.loaded.issue,
      tracking.context.runUrl
    )
    log.info(
      `Tracking issue #${saved.issue.number} ${saved.action}${saved.commented ? ', with a comment on what changed' : ''}: ${saved.issue.url}`
    )
    return undefined
  } catch (error) {
    return `${messageOf(error)}. The issue keeps the state of its last successful update; the next run compares with that, and this run's report is in report-file.`
  }
}

/** Posts or updates the gate's comment on the event's pull request; a failure is a warning. */
export async function commentOnPullRequest(
  settings: Settings,
  report: Report,
  env: NodeJS.ProcessEnv,
  log: Logger
): Promise<void> {
  const pullNumber = await pullRequestNumber(env)
  if (pullNumber === undefined) {
    log.info(
      `comment: the ${env.GITHUB_EVENT_NAME ?? 'current'} event has no pull request; nothing posted`
    )
    return
  }
  const github = await connect(settings, env, log, 'the pull request comment')
  if (github === undefined) return
  try {
    const posted = await upsertPullRequestComment(
      github.octokit,
      github.context.repo,
      pullNumber,
      report,
      {
        job: github.context.job,
        runUrl: github.context.runUrl,
        ...(settings.githubAppLogin !== undefined && { appLogin: settings.githubAppLogin })
      }
    )
    log.info(`Pull request #${pullNumber}: comment ${posted.action}: ${posted.url}`)
  } catch (error) {
    log.warning(messageOf(error))
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
