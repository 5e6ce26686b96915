// A loopback GitHub REST API with the endpoints route-gate uses, in their real request and response
// shapes: list, search, create and update issues; list, create and update issue comments (a pull
// request's conversation comments are issue comments). It records every request, and a test can
// make the next requests fail the way GitHub fails (rate limit, missing permission). Every request
// and answer is judged against GitHub's published API description; stop() fails on any mismatch.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { checkExchange, loadDescription } from './github-contract.ts'

export interface RecordedRequest {
  method: string
  path: string
  query: Record<string, string>
  body: Record<string, string | string[] | undefined> | undefined
  authorization: string | undefined
}

export interface FakeIssue {
  id: number
  number: number
  title: string
  body: string
  state: 'open' | 'closed'
  state_reason: string | null
  labels: { id: number; name: string }[]
  pull_request?: { url: string }
  comments: number
  created_at: string
  updated_at: string
  /** who opened it: the workflow's bot unless a test says otherwise */
  user?: { login: string; id: number; type: 'Bot' | 'User' }
  author_association?: string
}

export interface FakeComment {
  id: number
  issue_number: number
  body: string
  created_at: string
  updated_at: string
  user?: { login: string; id: number; type: 'Bot' | 'User' }
  author_association?: string
}

export interface Failure {
  status: number
  message: string
  headers?: Record<string, string>
  /** only requests whose "METHOD /path" matches */
  match?: RegExp
}

const REPO_PATH = /^\/repos\/([^/]+)\/([^/]+)(\/.*)$/

export class FakeGitHub {
  readonly requests: RecordedRequest[] = []
  /** the documented operations the requests matched, in order (e.g. issues/create) */
  readonly operations: string[] = []
  /** where a request or an answer differs from GitHub's published API description */
  readonly contractProblems: string[] = []
  readonly issues: FakeIssue[] = []
  readonly comments: FakeComment[] = []
  /** labels a token without push access cannot set: GitHub drops them silently */
  dropLabels = false
  /**
   * The token's own account, which GET /user answers and which writes what the run creates;
   * undefined: the workflow's GITHUB_TOKEN, which writes as github-actions[bot] and is refused GET /user.
   */
  viewer: { login: string; id: number; type: 'Bot' | 'User' } | undefined = undefined
  /**
   * With no viewer: an App's installation token other than GITHUB_TOKEN, refused GET /user like it,
   * that writes as this bot account.
   */
  installation: { login: string; id: number } | undefined = undefined
  /**
   * Repository permission by login (lowercase), as GET .../collaborators/{username}/permission
   * answers it; an account not listed is no collaborator (404).
   */
  readonly permissions = new Map<string, 'admin' | 'write' | 'read' | 'none'>()
  private failures: Failure[] = []
  private nextId = 1000
  private nextNumber = 1
  private server: Server | undefined
  url = ''

  constructor(
    readonly owner = 'acme',
    readonly repo = 'shop'
  ) {}

  async start(): Promise<string> {
    loadDescription()
    this.server = createServer((req, res) => {
      void this.handle(req, res)
    })
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this.url
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()))
    if (this.contractProblems.length > 0) {
      throw new Error(`Not as GitHub documents it:\n${this.contractProblems.join('\n')}`)
    }
  }

  /** The next matching request fails with this answer (once). */
  failNext(failure: Failure): void {
    this.failures.push(failure)
  }

  /** Adds an issue (or, with pull_request set, a pull request) as if created earlier. */
  addIssue(fields: Partial<FakeIssue> & { title: string }): FakeIssue {
    const number = this.nextNumber++
    const issue: FakeIssue = {
      id: this.nextId++,
      number,
      body: '',
      state: 'open',
      state_reason: null,
      labels: [],
      comments: 0,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
      ...fields
    }
    this.issues.push(issue)
    return issue
  }

  /** Requests other than reads. */
  writes(): RecordedRequest[] {
    // a GraphQL query is a POST that changes nothing
    return this.requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql')
  }

  private author(): { login: string; id: number; type: 'Bot' | 'User' } {
    if (this.viewer) return this.viewer
    if (this.installation) return { ...this.installation, type: 'Bot' }
    return { login: 'github-actions[bot]', id: 41898282, type: 'Bot' }
  }

  private issueJson(issue: FakeIssue): Record<string, unknown> {
    const api = `${this.url}/repos/${this.owner}/${this.repo}`
    const url = `${api}/issues/${issue.number}`
    return {
      ...issue,
      labels: issue.labels.map((l) => ({
        ...l,
        node_id: `LA_${l.id}`,
        url: `${api}/labels/${encodeURIComponent(l.name)}`,
        color: 'ededed',
        default: false,
        description: null
      })),
      node_id: `I_${issue.id}`,
      url,
      repository_url: api,
      labels_url: `${url}/labels{/name}`,
      comments_url: `${url}/comments`,
      events_url: `${url}/events`,
      html_url: `https://github.com/${this.owner}/${this.repo}/${issue.pull_request ? 'pull' : 'issues'}/${issue.number}`,
      user: this.userJson(issue.user ?? this.author()),
      author_association: issue.author_association ?? 'NONE',
      assignee: null,
      assignees: [],
      milestone: null,
      locked: false,
      closed_at: issue.state === 'closed' ? issue.updated_at : null
    }
  }

  private commentJson(comment: FakeComment): Record<string, unknown> {
    const api = `${this.url}/repos/${this.owner}/${this.repo}`
    return {
      id: comment.id,
      node_id: `IC_${comment.id}`,
      url: `${api}/issues/comments/${comment.id}`,
      body: comment.body,
      created_at: comment.created_at,
      updated_at: comment.updated_at,
      issue_url: `${api}/issues/${comment.issue_number}`,
      html_url: `https://github.com/${this.owner}/${this.repo}/issues/${comment.issue_number}#issuecomment-${comment.id}`,
      user: this.userJson(comment.user ?? this.author()),
      author_association: comment.author_association ?? 'NONE'
    }
  }

  /** A user as GitHub embeds one: the workflow's bot unless a test says who. */
  private userJson(user: FakeComment['user']): Record<string, unknown> {
    const { login, id, type } = user ?? { login: 'github-actions[bot]', id: 41898282, type: 'Bot' }
    const api = `${this.url}/users/${encodeURIComponent(login)}`
    return {
      login,
      id,
      type,
      node_id: `U_${id}`,
      avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
      gravatar_id: '',
      url: api,
      html_url: `https://github.com/${encodeURIComponent(login)}`,
      followers_url: `${api}/followers`,
      following_url: `${api}/following{/other_user}`,
      gists_url: `${api}/gists{/gist_id}`,
      starred_url: `${api}/starred{/owner}{/repo}`,
      subscriptions_url: `${api}/subscriptions`,
      organizations_url: `${api}/orgs`,
      repos_url: `${api}/repos`,
      events_url: `${api}/events{/privacy}`,
      received_events_url: `${api}/received_events`,
      site_admin: false
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost')
    let raw = ''
    for await (const chunk of req) raw += String(chunk)
    const request: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: raw ? (JSON.parse(raw) as RecordedRequest['body']) : undefined,
      authorization: req.headers.authorization
    }
    this.requests.push(request)
    const send = (status: number, body: unknown, headers: Record<string, string> = {}): void =>
      this.respond(request, res, status, body, headers)
    const signature = `${request.method} ${request.path}`
    const failure = this.failures.findIndex((f) => f.match === undefined || f.match.test(signature))
    if (failure >= 0) {
      const [f] = this.failures.splice(failure, 1)
      const body = { message: f!.message, documentation_url: 'https://docs.github.com/rest' }
      // GraphQL is outside the REST description the answers are judged against
      if (request.path === '/graphql') this.answer(res, f!.status, body, f!.headers)
      else send(f!.status, body, f!.headers)
      return
    }
    if (request.method === 'GET' && request.path === '/user') {
      if (this.viewer) {
        // GET /user answers a public-user: the embedded simple-user plus the profile fields
        send(200, {
          ...this.userJson(this.viewer),
          name: null,
          company: null,
          blog: null,
          location: null,
          email: null,
          hireable: null,
          bio: null,
          public_repos: 0,
          public_gists: 0,
          followers: 0,
          following: 0,
          created_at: '2020-01-01T00:00:00Z',
          updated_at: '2020-01-01T00:00:00Z'
        })
      } else send(403, { message: 'Resource not accessible by integration' })
      return
    }
    if (request.method === 'POST' && request.path === '/graphql') {
      this.graphql(request, res)
      return
    }
    if (request.method === 'GET' && request.path === '/search/issues') {
      send(200, this.search(request.query.q ?? ''))
      return
    }
    const m = REPO_PATH.exec(request.path)
    if (!m || m[1] !== this.owner || m[2] !== this.repo) {
      send(404, { message: 'Not Found' })
      return
    }
    const route = `${request.method} ${m[3]}`
    const now = new Date().toISOString()
    let match: RegExpExecArray | null
    if (route === 'GET /issues') {
      const { state = 'open', labels } = request.query
      const found = this.issues
        .filter((i) => state === 'all' || i.state === state)
        .filter(
          (i) =>
            labels === undefined ||
            labels.split(',').every((l) => i.labels.some((x) => x.name === l))
        )
        .sort((a, b) => b.number - a.number)
      this.sendPage(
        req,
        res,
        found.map((i) => this.issueJson(i)),
        request
      )
    } else if (route === 'POST /issues') {
      const body = request.body ?? {}
      const labels = this.dropLabels ? [] : ((body.labels as string[] | undefined) ?? [])
      const issue = this.addIssue({
        title: String(body.title),
        body: String(body.body ?? ''),
        labels: labels.map((name, i) => ({ id: i + 1, name })),
        user: this.author()
      })
      send(201, this.issueJson(issue))
    } else if ((match = /^PATCH \/issues\/(\d+)$/.exec(route))) {
      const issue = this.issues.find((i) => i.number === Number(match![1]))
      if (!issue) return send(404, { message: 'Not Found' })
      const body = request.body ?? {}
      if (typeof body.title === 'string') issue.title = body.title
      if (typeof body.body === 'string') issue.body = body.body
      if (body.state === 'open' || body.state === 'closed') {
        issue.state = body.state
        issue.state_reason = (body.state_reason as string | undefined) ?? null
      }
      issue.updated_at = now
      send(200, this.issueJson(issue))
    } else if ((match = /^GET \/issues\/(\d+)\/comments$/.exec(route))) {
      const number = Number(match[1])
      const found = this.comments.filter((c) => c.issue_number === number)
      this.sendPage(
        req,
        res,
        found.map((c) => this.commentJson(c)),
        request
      )
    } else if ((match = /^POST \/issues\/(\d+)\/comments$/.exec(route))) {
      const issue = this.issues.find((i) => i.number === Number(match![1]))
      if (!issue) return send(404, { message: 'Not Found' })
      const comment: FakeComment = {
        id: this.nextId++,
        issue_number: issue.number,
        body: String(request.body?.body ?? ''),
        created_at: now,
        updated_at: now,
        user: this.author()
      }
      this.comments.push(comment)
      issue.comments += 1
      send(201, this.commentJson(comment))
    } else if ((match = /^GET \/collaborators\/([^/]+)\/permission$/.exec(route))) {
      const login = decodeURIComponent(match[1]!)
      const permission = this.permissions.get(login.toLowerCase())
      if (permission === undefined) return send(404, { message: 'Not Found' })
      const role = { admin: 'admin', write: 'write', read: 'read', none: 'none' }[permission]
      send(200, {
        permission,
        role_name: role,
        user: { ...this.userJson({ login, id: 4242, type: 'User' }), role_name: role }
      })
    } else if ((match = /^PATCH \/issues\/comments\/(\d+)$/.exec(route))) {
      const comment = this.comments.find((c) => c.id === Number(match![1]))
      if (!comment) return send(404, { message: 'Not Found' })
      comment.body = String(request.body?.body ?? '')
      comment.updated_at = now
      send(200, this.commentJson(comment))
    } else {
      send(404, { message: 'Not Found' })
    }
  }

  /**
   * GitHub's GraphQL API, which the REST description does not cover: only the one query route-gate
   * sends is answered (any other is a contract problem), with the account the token writes as.
   */
  private graphql(request: RecordedRequest, res: ServerResponse): void {
    const query = String(request.body?.query ?? '')
      .replace(/\s+/g, ' ')
      .trim()
    if (query !== 'query { viewer { login } }') {
      this.contractProblems.push(`POST /graphql: a query the fake does not know: ${query}`)
    }
    this.operations.push('graphql/viewer')
    this.answer(res, 200, { data: { viewer: { login: this.author().login } } })
  }

  private answer(
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {}
  ): void {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
    res.end(JSON.stringify(body))
  }

  /** Pages as GitHub does: per_page and page, with a Link header to the next page. */
  private sendPage(
    req: IncomingMessage,
    res: ServerResponse,
    items: unknown[],
    request: RecordedRequest
  ): void {
    const perPage = Number(request.query.per_page ?? 30)
    const page = Number(request.query.page ?? 1)
    const slice = items.slice((page - 1) * perPage, page * perPage)
    const headers: Record<string, string> = {}
    if (page * perPage < items.length) {
      const next = new URL(req.url ?? '/', this.url)
      next.searchParams.set('page', String(page + 1))
      headers.link = `<${next.toString()}>; rel="next"`
    }
    this.respond(request, res, 200, slice, headers)
  }

  private respond(
    request: RecordedRequest,
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string>
  ): void {
    const verdict = checkExchange({ ...request, status, response: body })
    if (verdict.operation !== undefined) this.operations.push(verdict.operation)
    this.contractProblems.push(...verdict.problems)
    this.answer(res, status, body, headers)
  }

  /** Enough of the search syntax for route-gate's query: repo:, is:issue and a quoted in:title phrase. */
  private search(q: string): Record<string, unknown> {
    const phrase = /"([^"]*)"/.exec(q)?.[1] ?? ''
    const inRepo = q.includes(`repo:${this.owner}/${this.repo}`)
    const items = this.issues
      .filter(() => inRepo)
      .filter((i) => !q.includes('is:issue') || i.pull_request === undefined)
      .filter((i) => i.title.toLowerCase().includes(phrase.toLowerCase()))
      .map((i) => ({ ...this.issueJson(i), score: 1 }))
    return { total_count: items.length, incomplete_results: false, items, search_type: 'lexical' }
  }
}
