// The pull request comment of a gate run: the verdict and, for each Route that is not ready, what is
// wrong and what to do. The job summary's rendering, cut to fit a comment.
import type { Report } from '../model/types.ts'
import { escapeMarkdownInline as md } from './escape.ts'
import { notReadyOnly } from './issue.ts'
import { renderSummary } from './summary.ts'

export interface CommentOptions {
  /** "<workflow> / <job>" */
  job: string
  runUrl?: string
  /** UTF-8 bytes the visible comment may take */
  maxBytes: number
}

export function renderPullRequestComment(report: Report, options: CommentOptions): string {
  const run = options.runUrl === undefined ? 'this run' : `[this run](${options.runUrl})`
  const footer = `<sub>${md(options.job)} · updated by ${run} · route-gate edits this comment on every run of the job</sub>`
  const summary = renderSummary(notReadyOnly(report), {
    maxBytes: Math.max(1000, options.maxBytes - Buffer.byteLength(footer) - 2)
  })
  return `${summary}\n${footer}\n`
}
