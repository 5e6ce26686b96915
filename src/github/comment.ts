// The gate's pull request comment: one per workflow job, found again by a hidden marker and edited
// in place on re-runs, so a pull request never collects a pile of stale verdicts.
import { createHash } from 'node:crypto'
import type { Report } from '../model/types.ts'
import { renderPullRequestComment } from '../report/comment.ts'
import { call, type Octokit, type Repo } from './client.ts'
import { trustOf, type Authored } from './trust.ts'

const PERMISSION = 'pull-requests: write'
const BODY_MAX_BYTES = 65_000

/** The job's marker: a hash, because workflow and job names are free text. */
export function commentMarker(job: string): string {
  const id = createHash('sha256').update(job).digest('hex').slice(0, 16)
  return `<!-- route-gate:pr-comment job=${id} -->`
}

export interface PostedComment {
  id: number
  url: string
  action: 'created' | 'updated'
}

export async function upsertPullRequestComment(
  octokit: Octokit,
  repo: Repo,
  pullNumber: number,
  report: Report,
  options: { job: string; runUrl?: string; appLogin?: string }
): Promise<PostedComment> {
  const marker = commentMarker(options.job)
  const body = `${marker}\n${renderPullRequestComment(report, { ...options, maxBytes: BODY_MAX_BYTES - Buffer.byteLength(marker) - 1 })}`
  const comments = await call(`list the comments of pull request #${pullNumber}`, PERMISSION, () =>
    octokit.paginate(octokit.rest.issues.listComments, {
      ...repo,
      issue_number: pullNumber,
      per_page: 100
    })
  )
  // the marker opens the body; quoted anywhere else (cluster text) it marks nothing
  const marked = comments.filter((c) => (c.body ?? '').startsWith(marker))
  const existing = await firstTrusted(octokit, repo, marked, options.appLogin)
  if (existing !== undefined) {
    const { data } = await call(
      `update comment ${existing.id} on pull request #${pullNumber}`,
      PERMISSION,
      () => octokit.rest.issues.updateComment({ ...repo, comment_id: existing.id, body })
    )
    return { id: data.id, url: data.html_url, action: 'updated' }
  }
  const { data } = await call(`comment on pull request #${pullNumber}`, PERMISSION, () =>
    octokit.rest.issues.createComment({ ...repo, issue_number: pullNumber, body })
  )
  return { id: data.id, url: data.html_url, action: 'created' }
}

/** The first of the marked comments that a trusted account wrote; GitHub is asked only if needed. */
async function firstTrusted<T extends Authored>(
  octokit: Octokit,
  repo: Repo,
  marked: T[],
  appLogin: string | undefined
): Promise<T | undefined> {
  if (marked.length === 0) return undefined
  const trust = await trustOf(octokit, repo, appLogin)
  for (const comment of marked) if (await trust(comment)) return comment
  return undefined
}
