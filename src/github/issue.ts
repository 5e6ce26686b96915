// The monitor's tracking issue: one per cluster name, found again by a hidden marker, holding the
// previous run's state. It is rewritten in place on every run (one PATCH, so the stored state is
// either the old one or the new one, never lost half-way), closed when every Route is ready and
// reopened when one degrades; degradations and recoveries also get a comment.
import type { RouteState } from '../model/transitions.ts'
import type { Report } from '../model/types.ts'
import { issueTitle, renderChangeComment, renderIssueBody } from '../report/issue.ts'
import { call, type Octokit, type Repo } from './client.ts'
import { decodeState, encodeState } from './state.ts'
import { trusted, trustOf, type Trust } from './trust.ts'

export const ISSUE_LABEL = 'route-gate'
const PERMISSION = 'issues: write'
// GitHub's limit is 65,536 characters; bytes are never fewer than characters.
const BODY_MAX_BYTES = 65_000

export interface TrackingIssue {
  number: number
  state: 'open' | 'closed'
  body: string
  url: string
}

export interface Loaded {
  issue?: TrackingIssue
  previous?: RouteState[]
  /** why the state could not be used, when an issue was found */
  warning?: string
}

export interface Saved {
  issue: TrackingIssue
  action: 'created' | 'updated' | 'reopened' | 'closed'
  commented: boolean
}

export function issueMarker(clusterName: string): string {
  return `<!-- route-gate:tracking-issue cluster=${clusterName} -->`
}

interface IssueData {
  number: number
  state: string
  body?: string | null
  html_url: string
  pull_request?: unknown
  user?: { login?: string; type?: string } | null
}

function toIssue(data: IssueData): TrackingIssue {
  return {
    number: data.number,
    state: data.state === 'closed' ? 'closed' : 'open',
    body: data.body ?? '',
    url: data.html_url
  }
}

export class IssueTracker {
  private trust: Trust | undefined
  /** marked issues by accounts not trusted, for the hint when none is adopted */
  private strangers: IssueData[] = []

  constructor(
    private readonly octokit: Octokit,
    private readonly repo: Repo,
    private readonly clusterName: string,
    /** github-app-login: the account an App's installation token writes as */
    private readonly appLogin?: string
  ) {}

  /**
   * The tracking issue and the state in it. Issues carry the route-gate label; when a token without
   * push access created the issue, GitHub dropped the label, so the title search is the fallback.
   */
  async load(): Promise<Loaded> {
    const issue = (await this.listLabelled()) ?? (await this.searchByTitle())
    if (issue === undefined) return this.strangerHint()
    // the state is the line right after the marker: nowhere else in the body (which quotes cluster text)
    const state = decodeState(issue.body.split('\n')[1] ?? '')
    if (state instanceof Error) {
      return {
        issue,
        warning: `Tracking issue #${issue.number}: ${state.message}; this run is the baseline`
      }
    }
    if (state === undefined) {
      return {
        issue,
        warning: `Tracking issue #${issue.number} holds no state; this run is the baseline`
      }
    }
    return { issue, previous: state }
  }

  async save(report: Report, found: TrackingIssue | undefined, runUrl?: string): Promise<Saved> {
    const body = this.body(report, runUrl)
    const healthy = report.verdict === 'ready'
    let issue: TrackingIssue
    let action: Saved['action']
    if (found === undefined) {
      // created even when all is well: the issue is where the state lives for the next run
      issue = await this.create(body)
      action = 'created'
      if (healthy)
        issue = await this.update(issue.number, { state: 'closed', state_reason: 'completed' })
    } else {
      const reopen = !healthy && found.state === 'closed'
      const close = healthy && found.state === 'open'
      issue = await this.update(found.number, {
        title: issueTitle(this.clusterName),
        body,
        ...(reopen && { state: 'open', state_reason: 'reopened' }),
        ...(close && { state: 'closed', state_reason: 'completed' })
      })
      action = reopen ? 'reopened' : close ? 'closed' : 'updated'
    }
    const comment = renderChangeComment(report, runUrl)
    if (comment !== undefined) {
      await call(`comment on tracking issue #${issue.number}`, PERMISSION, () =>
        this.octokit.rest.issues.createComment({
          ...this.repo,
          issue_number: issue.number,
          body: comment
        })
      )
    }
    return { issue, action, commented: comment !== undefined }
  }

  private body(report: Report, runUrl: string | undefined): string {
    const hidden = `${issueMarker(this.clusterName)}\n${encodeState(report.routes)}\n`
    const visible = renderIssueBody(report, {
      clusterName: this.clusterName,
      runUrl,
      maxBytes: BODY_MAX_BYTES - Buffer.byteLength(hidden)
    })
    return `${hidden}${visible}`
  }

  private async listLabelled(): Promise<TrackingIssue | undefined> {
    const issues = await call('list the tracking issues', PERMISSION, () =>
      this.octokit.paginate(this.octokit.rest.issues.listForRepo, {
        ...this.repo,
        labels: ISSUE_LABEL,
        state: 'all',
        per_page: 100
      })
    )
    return this.pick(issues)
  }

  private async searchByTitle(): Promise<TrackingIssue | undefined> {
    const q = `repo:${this.repo.owner}/${this.repo.repo} is:issue in:title "${issueTitle(this.clusterName)}"`
    const result = await call('search for the tracking issue', PERMISSION, () =>
      this.octokit.rest.search.issuesAndPullRequests({ q, per_page: 100 })
    )
    return this.pick(result.data.items)
  }

  /**
   * The open issue that starts with the marker, else the newest closed one; the oldest of several
   * open ones.
   */
  private async pick(issues: IssueData[]): Promise<TrackingIssue | undefined> {
    const marker = issueMarker(this.clusterName)
    const marked = issues.filter(
      (i) => i.pull_request === undefined && (i.body ?? '').startsWith(marker)
    )
    if (marked.length === 0) return undefined
    this.trust ??= await trustOf(this.octokit, this.repo, this.appLogin)
    const adopted = await trusted(marked, this.trust)
    this.strangers = marked.filter((i) => !adopted.includes(i))
    const ours = adopted.map(toIssue)
    const open = ours.filter((i) => i.state === 'open').sort((a, b) => a.number - b.number)
    const closed = ours.filter((i) => i.state === 'closed').sort((a, b) => b.number - a.number)
    return open[0] ?? closed[0]
  }

  /**
   * No issue adopted, yet another bot wrote one with the marker: an App's installation token may be
   * in use without github-app-login (GET /user cannot say whose it is). Said, never assumed.
   */
  private strangerHint(): Loaded {
    const bots = this.strangers.filter((i) => i.user?.type === 'Bot')
    const first = bots[0]
    if (first === undefined || this.appLogin !== undefined) return {}
    return {
      warning: `Issue #${first.number} by ${first.user?.login ?? 'a bot'} carries route-gate's marker for cluster ${this.clusterName} but is not adopted: route-gate trusts only the token's own account and repository writers. If github-token is that App's installation token, set github-app-login: ${first.user?.login ?? ''}`
    }
  }

  private async create(body: string): Promise<TrackingIssue> {
    const { data } = await call('create the tracking issue', PERMISSION, () =>
      this.octokit.rest.issues.create({
        ...this.repo,
        title: issueTitle(this.clusterName),
        body,
        labels: [ISSUE_LABEL]
      })
    )
    return toIssue(data)
  }

  private async update(
    number: number,
    fields: {
      title?: string
      body?: string
      state?: 'open' | 'closed'
      state_reason?: 'completed' | 'reopened'
    }
  ): Promise<TrackingIssue> {
    const { data } = await call(`update tracking issue #${number}`, PERMISSION, () =>
      this.octokit.rest.issues.update({ ...this.repo, issue_number: number, ...fields })
    )
    return toIssue(data)
  }
}
