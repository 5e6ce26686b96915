// The issue body, the change comment and the pull request comment: what they say, that cluster text
// in them is inert, and that the hidden state survives any Route name.
import { describe, expect, it } from 'vitest'
import { commentMarker } from '../../../src/github/comment.ts'
import { decodeState, encodeState } from '../../../src/github/state.ts'
import type { RouteState } from '../../../src/model/transitions.ts'
import type { Transition, TransitionState } from '../../../src/model/types.ts'
import { renderPullRequestComment } from '../../../src/report/comment.ts'
import { issueTitle, renderChangeComment, renderIssueBody } from '../../../src/report/issue.ts'
import { monitorReport, route } from '../../fixtures/monitor/reports.ts'

const t = (name: string, from: TransitionState, to: TransitionState): Transition => ({
  kind: 'HTTPRoute',
  namespace: 'shop',
  name,
  from,
  to
})

function expectInert(text: string): void {
  expect(text).not.toContain('<img')
  expect(text).not.toMatch(/@octocat/)
  expect(text).not.toMatch(/(^|[^&])#1\b/)
  expect(text).not.toContain('-->')
  expect(text).not.toContain('**bold**')
}

describe('renderIssueBody', () => {
  const report = monitorReport(
    [route('web', 'failed'), route('api', 'pending'), route('home', 'ready')],
    [t('web', 'ready', 'failed')]
  )
  const body = renderIssueBody(report, {
    clusterName: 'prod-eu',
    runUrl: 'https://github.com/acme/shop/actions/runs/1',
    maxBytes: 60_000
  })

  it('lists every Route that is not ready with its problem and fix, and no ready Route', () => {
    expect(body).toContain('Cluster **prod-eu**')
    expect(body).toContain('1 of 3 Routes ready')
    expect(body).toContain('HTTPRoute <code>shop/web</code>')
    expect(body).toContain('HTTPRoute <code>shop/api</code>')
    expect(body).not.toContain('shop/home')
    expect(body).toContain('**What to do:** Label the namespace or change allowedRoutes')
    expect(body).toContain('### Changes since the last run')
    expect(body).toContain('[this run](https://github.com/acme/shop/actions/runs/1)')
  })

  it('makes hostile controller text inert', () => {
    expectInert(body)
    expect(body).toContain('&lt;img src=x onerror=alert(1)&gt;')
  })

  it('stays within its byte budget with thousands of failing Routes', () => {
    const many = monitorReport(Array.from({ length: 3000 }, (_, i) => route(`r${i}`, 'failed')))
    const big = renderIssueBody(many, { clusterName: 'x', maxBytes: 50_000 })
    expect(Buffer.byteLength(big)).toBeLessThanOrEqual(50_000)
    expect(big).toMatch(/more Routes not shown/)
  })

  it('says so when every Route is ready', () => {
    const healthy = renderIssueBody(monitorReport([route('web', 'ready')]), {
      clusterName: 'prod',
      maxBytes: 60_000
    })
    expect(healthy).toContain(
      'Every Route is ready. This issue reopens when a run finds a Route that is not.'
    )
    expect(healthy).toContain('✅ route-gate: 1 of 1 Route ready')
  })

  it('has a stable title per cluster', () => {
    expect(issueTitle('prod-eu')).toBe('route-gate: failing Routes on cluster prod-eu')
  })
})

describe('renderChangeComment', () => {
  it('lists degradations first with their reason, then recoveries and other changes', () => {
    const report = monitorReport(
      [route('web', 'failed'), route('api', 'ready'), route('new', 'pending')],
      [t('api', 'failed', 'ready'), t('new', 'absent', 'pending'), t('web', 'ready', 'failed')]
    )
    const comment = renderChangeComment(report, 'https://example.test/run')!
    const lines = comment.split('\n')
    expect(lines[0]).toBe('### ❌ 1 degraded · 1 recovered · 1 new')
    expect(lines[2]).toMatch(
      /^- ❌ \*\*HTTPRoute shop\/web\*\*: ready → failed — Accepted \/ NotAllowedByListeners: Listener http refuses/
    )
    expect(lines[3]).toBe('- ✅ **HTTPRoute shop/api**: failed → ready')
    expect(lines[4]).toMatch(/^- 🆕 \*\*HTTPRoute shop\/new\*\*: absent → pending/)
    expect(comment).toContain('[This run](https://example.test/run): 1 of 3 Routes ready.')
  })

  it('is not written when nothing degraded or recovered', () => {
    const report = monitorReport([route('new', 'failed')], [t('new', 'absent', 'failed')])
    expect(renderChangeComment(report)).toBeUndefined()
    expect(renderChangeComment(monitorReport([route('web', 'ready')]))).toBeUndefined()
  })

  it('escapes Route names and problem titles', () => {
    const hostile = { ...route('web', 'failed'), name: '**x** @octocat' }
    hostile.parents[0]!.problems[0]!.title = '<img src=x onerror=alert(1)> #1 -->'
    const comment = renderChangeComment(
      monitorReport([hostile], [{ ...t('**x** @octocat', 'ready', 'failed') }])
    )!
    expect(comment).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expectInert(comment)
  })
})

describe('renderPullRequestComment', () => {
  it('shows the verdict and the failing Routes with their fixes, escaped, within its budget', () => {
    const report = monitorReport([route('web', 'failed'), route('api', 'ready')])
    const body = renderPullRequestComment(
      { ...report, mode: 'gate' },
      { job: 'deploy / <script>', runUrl: 'https://example.test/run', maxBytes: 60_000 }
    )
    expect(body).toContain('❌ route-gate: 1 of 2 Routes ready')
    expect(body).toContain('<details><summary>Suggested fix: patch Namespace shop (proven: ')
    expect(body).toContain('deploy / &lt;script&gt;')
    expect(body).toContain('[this run](https://example.test/run)')
    expectInert(body)
  })

  it('keeps one marker per job, whatever the job is called', () => {
    expect(commentMarker('deploy / routes')).toMatch(
      /^<!-- route-gate:pr-comment job=[0-9a-f]{16} -->$/
    )
    expect(commentMarker('deploy / routes')).not.toBe(commentMarker('deploy / routes-eu'))
    expect(commentMarker('x --> y')).not.toContain('x -->')
  })
})

describe('the hidden state', () => {
  it('round-trips every Route and survives surrounding text', () => {
    const states: RouteState[] = [
      { kind: 'HTTPRoute', namespace: 'shop', name: 'web', verdict: 'ready' },
      { kind: 'GRPCRoute', namespace: 'shop', name: 'web', verdict: 'failed' },
      { kind: 'HTTPRoute', namespace: 'pay', name: 'api', verdict: 'pending' }
    ]
    const block = encodeState(states)
    expect(block).toMatch(/^<!-- route-gate:state v1 [A-Za-z0-9+/=]+ -->$/)
    const decoded = decodeState(`intro\n${block}\nrest`) as RouteState[]
    expect(decoded).toHaveLength(3)
    expect(decoded).toEqual(expect.arrayContaining(states))
  })

  it('keeps 5,000 Routes small enough for an issue body', () => {
    const states = Array.from({ length: 5000 }, (_, i): RouteState => ({
      kind: 'HTTPRoute',
      namespace: `team-${i % 50}`,
      name: `service-${i}-route`,
      verdict: i % 7 === 0 ? 'failed' : 'ready'
    }))
    const block = encodeState(states)
    expect(block.length).toBeLessThan(40_000)
    expect(decodeState(block)).toHaveLength(5000)
  })

  it('tells a missing state from a broken one', () => {
    expect(decodeState('no state here')).toBeUndefined()
    expect(decodeState('<!-- route-gate:state v1 AAAA -->')).toBeInstanceOf(Error)
    expect(decodeState('<!-- route-gate:state v1 abc')).toBeInstanceOf(Error)
  })
})
