// Traffic verification: sends each parent's planned requests in rounds, with backoff, until every
// parent serves or the deadline passes. A parent serves when every one of its requests is routed; the
// listener's no-route answer is fetched once per listener and compared with each answer.
import type { ProbeResult } from '../../model/types.ts'
import {
  classify,
  usableNoRoute,
  type AnswerKind,
  type NoRouteAnswers,
  type RawAnswer,
  type StatusRange
} from '../rules/answer.ts'
import { explainAnswer, notProbedOutcome, reportAnswer } from '../rules/answer-meaning.ts'
import type { ProbeOutcome } from '../rules/answer-meaning.ts'
import type { Send, SendOptions } from '../transport/http.ts'
import type { GuardPolicy } from '../rules/target-guard.ts'
import {
  requestUrl,
  type ListenerTarget,
  type ParentPlan,
  type ProbeRequest
} from '../rules/plan-requests.ts'

export interface ProbeTarget {
  /** unique per Route and parent */
  key: string
  /** for the log */
  label: string
  plan: ParentPlan
}

export interface VerifyOptions {
  deadline: number
  now: () => number
  send: Send
  log: (line: string) => void
  sleep: (ms: number) => Promise<void>
  expect?: StatusRange[]
  ca?: string
  skipTlsVerify: boolean
  policy: GuardPolicy
  /** traffic-show-body: keep the body excerpt and every header, for the report file only */
  showBody: boolean
  /** traffic-successes: rounds in a row every request of a parent must be routed in */
  successes: number
  /**
   * The parents whose status is no longer ready, by key, with why: read once per round, so a Route
   * that degrades while its traffic is probed fails instead of passing on an earlier answer.
   */
  degraded?: () => Promise<Map<string, string>>
  lookup?: SendOptions['lookup']
}

/** a request that hangs must not eat the run's deadline: the next round retries it */
export const REQUEST_TIMEOUT_MS = 3000
const FIRST_DELAY_MS = 200
const MAX_DELAY_MS = 2000
/** parents probed at once: enough to overlap waits, few enough not to flood a Gateway */
const CONCURRENCY = 8

interface Attempt {
  kind: AnswerKind
  request: ProbeRequest
  answer: RawAnswer
  noRoute?: NoRouteAnswers
}

/** A parent not yet proven or failed: asked again each round. */
interface Pending {
  key: string
  label: string
  targets: ListenerTarget[]
}

/**
 * Where the rounds stand. It is one record because every step reads and moves several of these at
 * once: a degraded status, for one, takes a parent out of pending and of serving and writes its outcome.
 */
interface Progress {
  outcomes: Map<string, ProbeOutcome>
  pending: Pending[]
  /** every probed parent's label: the degraded check names parents that have left pending too */
  labels: Map<string, string>
  /** each parent's latest answer: what the report shows when the deadline ends the rounds */
  last: Map<string, Attempt>
  /** routed rounds in a row: a single good answer does not prove a Route */
  streaks: Map<string, number>
  /** proven parents: a status that degrades before the end still fails them */
  serving: Set<string>
  /** one no-route answer per listener, shared by every parent on it */
  noRoutes: Map<string, NoRouteAnswers>
  started: number
  rounds: number
  tlsVerified: { tlsVerified: boolean }
}

export async function verifyTraffic(
  targets: ProbeTarget[],
  options: VerifyOptions
): Promise<Map<string, ProbeOutcome>> {
  const progress = startProgress(targets, options)
  let delay = FIRST_DELAY_MS
  while (progress.pending.length > 0 && options.now() < options.deadline) {
    await failDegraded(progress, options)
    if (progress.pending.length === 0) break
    await runRound(progress, options)
    const left = options.deadline - options.now()
    if (progress.pending.length === 0 || left <= 0) break
    // a parent on a streak is asked again soon; the backoff is for a data plane not there yet
    const onStreak = progress.pending.some((p) => progress.streaks.has(p.key))
    await options.sleep(Math.min(onStreak ? FIRST_DELAY_MS : delay, left))
    delay = Math.min(delay * 2, MAX_DELAY_MS)
  }
  // what served must still be ready now that the probing is over
  if (progress.serving.size > 0) await failDegraded(progress, options)
  for (const p of progress.pending) {
    const attempt = progress.last.get(p.key)
    progress.outcomes.set(
      p.key,
      unprovenOutcome(attempt, progress.rounds, progress.tlsVerified, options)
    )
  }
  return progress.outcomes
}

/** A plan that sends nothing has its outcome at once, ahead of every parent that is probed. */
function startProgress(targets: ProbeTarget[], options: VerifyOptions): Progress {
  const outcomes = new Map<string, ProbeOutcome>()
  const pending: Pending[] = []
  for (const t of targets) {
    if ('notProbed' in t.plan) {
      outcomes.set(t.key, notProbedOutcome(t.plan))
    } else {
      pending.push({ key: t.key, label: t.label, targets: t.plan.targets })
    }
  }
  return {
    outcomes,
    pending,
    labels: new Map(pending.map((p) => [p.key, p.label])),
    last: new Map(),
    streaks: new Map(),
    serving: new Set(),
    noRoutes: new Map(),
    started: options.now(),
    rounds: 0,
    tlsVerified: { tlsVerified: !options.skipTlsVerify }
  }
}

/**
 * Fails every pending or serving parent whose status is no longer ready: an answer from before the
 * change does not prove the Route as it is now.
 */
async function failDegraded(progress: Progress, options: VerifyOptions): Promise<void> {
  const degraded = (await options.degraded?.()) ?? new Map<string, string>()
  for (const [key, why] of degraded) {
    if (!progress.serving.has(key) && !progress.pending.some((p) => p.key === key)) continue
    progress.serving.delete(key)
    progress.pending = progress.pending.filter((p) => p.key !== key)
    progress.outcomes.set(key, degradedOutcome(why, progress.rounds, progress.tlsVerified))
    options.log(`${progress.labels.get(key) ?? key}: status no longer ready while probing: ${why}`)
  }
}

/**
 * Every pending parent's requests at once (up to CONCURRENCY), then each answer judged in the order
 * of the parents, so that the log reads the same however the requests interleave.
 */
async function runRound(progress: Progress, options: VerifyOptions): Promise<void> {
  progress.rounds++
  const attempts = await pool(progress.pending, CONCURRENCY, (p) =>
    probeParent(p.targets, progress.noRoutes, options)
  )
  const still: Pending[] = []
  progress.pending.forEach((p, i) => {
    if (judgeAttempt(p, attempts[i], progress, options)) still.push(p)
  })
  progress.pending = still
}

/** Records one parent's answer of this round; true while the parent is neither proven nor done. */
function judgeAttempt(
  p: Pending,
  attempt: Attempt | undefined,
  progress: Progress,
  options: VerifyOptions
): boolean {
  // the deadline left no time to send: the answer before stands
  if (attempt === undefined) return true
  if (attempt.kind === 'refused') {
    // the target guard never sends to that address, so no later round could prove the parent
    options.log(`${p.label}: not probed: ${attempt.answer.error?.message ?? 'address refused'}`)
    progress.outcomes.set(
      p.key,
      notProbedOutcome({
        cause: 'refused',
        notProbed: `not probed: ${attempt.answer.error?.message ?? ''}`
      })
    )
    return false
  }
  if (attempt.kind !== 'routed') {
    // a data plane that is not there yet gives the same answer every round: log it once
    if (gist(progress.last.get(p.key)) !== gist(attempt)) options.log(notYet(p.label, attempt))
    progress.last.set(p.key, attempt)
    progress.streaks.delete(p.key)
    return true
  }
  progress.last.set(p.key, attempt)
  const streak = (progress.streaks.get(p.key) ?? 0) + 1
  progress.streaks.set(p.key, streak)
  // one good answer can be luck (a stale data plane replica, a flapping backend)
  if (streak < options.successes) return true
  const seconds = ((options.now() - progress.started) / 1000).toFixed(1)
  options.log(
    `${p.label}: serving (${streak} rounds in a row routed; traffic verified after ${seconds}s, round ${progress.rounds})`
  )
  progress.serving.add(p.key)
  progress.outcomes.set(
    p.key,
    servingOutcome(attempt, streak, progress.rounds, progress.tlsVerified, options.showBody)
  )
  return false
}

function servingOutcome(
  attempt: Attempt,
  streak: number,
  rounds: number,
  tlsVerified: { tlsVerified: boolean },
  showBody: boolean
): ProbeOutcome {
  const noRoute = noRouteReport(attempt, showBody)
  return {
    result: {
      state: 'serving',
      attempts: rounds,
      successes: streak,
      last: reportAnswer(attempt.request, attempt.answer, showBody),
      ...(noRoute && { noRoute }),
      ...tlsVerified
    }
  }
}

/** Why a parent still pending when the rounds end does not serve: its last answer says. */
function unprovenOutcome(
  attempt: Attempt | undefined,
  rounds: number,
  tlsVerified: { tlsVerified: boolean },
  options: VerifyOptions
): ProbeOutcome {
  // a refused attempt never stays pending: it ended as not probed when it came
  if (!attempt || attempt.kind === 'routed' || attempt.kind === 'refused') {
    return deadlineOutcome(rounds, tlsVerified)
  }
  const { why, remediation } = explainAnswer(
    attempt.kind,
    attempt.request,
    attempt.answer,
    options.expect
  )
  const state = attempt.kind === 'unreachable' ? 'unreachable' : 'not-serving'
  const last = reportAnswer(attempt.request, attempt.answer, options.showBody)
  const noRoute = noRouteReport(attempt, options.showBody)
  return {
    result: {
      state,
      why,
      attempts: rounds,
      last,
      ...(noRoute && { noRoute }),
      ...tlsVerified
    },
    problem: {
      reason: state === 'unreachable' ? 'Unreachable' : 'NotServing',
      severity: 'error',
      title:
        state === 'unreachable'
          ? 'The Gateway could not be reached to verify traffic'
          : 'The Gateway does not serve the Route yet',
      message: why,
      remediation,
      evidence: answerEvidence(last, noRoute)
    }
  }
}

/** No answer to explain (none came, or a streak was still short): only the deadline is to blame. */
function deadlineOutcome(rounds: number, tlsVerified: { tlsVerified: boolean }): ProbeOutcome {
  return {
    result: {
      state: 'not-serving',
      why: 'the deadline passed before a request was answered',
      attempts: rounds,
      ...tlsVerified
    },
    problem: {
      reason: 'NotServing',
      severity: 'error',
      title: 'Traffic not verified before the deadline',
      remediation:
        'Give the gate a longer timeout, so that requests through the Gateway have time to be answered.'
    }
  }
}

/** The listener's no-route answer as the report shows it, beside the answer it was compared with. */
function noRouteReport(attempt: Attempt, showBody: boolean): ProbeResult['noRoute'] {
  return (
    attempt.noRoute && reportAnswer(attempt.noRoute[0].request, attempt.noRoute[0].answer, showBody)
  )
}

/**
 * One round for one parent: its requests in order until one is not routed. Undefined when the
 * deadline left no time to send anything.
 */
async function probeParent(
  targets: ListenerTarget[],
  noRoutes: Map<string, NoRouteAnswers>,
  options: VerifyOptions
): Promise<Attempt | undefined> {
  let attempt: Attempt | undefined
  for (const target of targets) {
    const noRoute = target.noRoute && (await noRouteAnswers(target.noRoute, noRoutes, options))
    for (const request of target.requests) {
      const answer = await send(request, options)
      if (!answer) return attempt
      const kind = classify(request, answer, noRoute, options.expect)
      attempt = { kind, request, answer, ...(noRoute && { noRoute }) }
      if (kind !== 'routed') return attempt
    }
  }
  return attempt
}

async function noRouteAnswers(
  requests: [ProbeRequest, ProbeRequest],
  cache: Map<string, NoRouteAnswers>,
  options: VerifyOptions
): Promise<NoRouteAnswers | undefined> {
  const [a, b] = requests
  const key = `${a.scheme}://${a.address}:${a.port}/${a.servername ?? ''}`
  const known = cache.get(key)
  if (known) return known
  const answers: { request: ProbeRequest; answer: RawAnswer }[] = []
  for (const request of [a, b]) {
    const answer = await send(request, options)
    if (!answer) return undefined
    answers.push({ request, answer })
  }
  const usable = usableNoRoute(answers)
  if (usable) cache.set(key, usable)
  return usable
}

async function send(request: ProbeRequest, options: VerifyOptions): Promise<RawAnswer | undefined> {
  const left = options.deadline - options.now()
  if (left <= 0) return undefined
  const timeoutMs = Math.min(REQUEST_TIMEOUT_MS, left)
  const answer = await options.send(request, {
    timeoutMs,
    skipTlsVerify: options.skipTlsVerify,
    policy: options.policy,
    ...(options.ca !== undefined && { ca: options.ca }),
    ...(options.lookup !== undefined && { lookup: options.lookup })
  })
  // A request the deadline cut short says nothing about the Gateway: the answer before it stands.
  const cutShort = answer.error?.code === 'ETIMEDOUT' && timeoutMs < REQUEST_TIMEOUT_MS
  return cutShort ? undefined : answer
}

function degradedOutcome(
  why: string,
  rounds: number,
  tlsVerified: { tlsVerified: boolean }
): ProbeOutcome {
  return {
    result: {
      state: 'not-serving',
      why: `the status stopped being ready while traffic was probed: ${why}`,
      attempts: rounds,
      ...tlsVerified
    },
    problem: {
      reason: 'StatusDegraded',
      severity: 'error',
      title: 'The Route stopped being ready while its traffic was verified',
      message: why,
      remediation:
        "The controller changed this parent's status while requests were being sent: an answer before the change does not prove the Route now. See the condition's reason, and check what changed the Route, its Gateway or its backends during the rollout."
    }
  }
}

/**
 * What the problem shows of an answer: it reaches the job summary, annotations and PR comment, which
 * anyone who reads the repository may see, so never the body and only headers that name no secret.
 */
function answerEvidence(last: ProbeResult['last'], noRoute: ProbeResult['noRoute']): string[] {
  const describe = (a: NonNullable<ProbeResult['last']>): string => {
    const head = a.error ?? `HTTP ${a.status}`
    const headers = Object.entries(a.headers ?? {}).map(([k, v]) => `${k}: ${v}`)
    return [
      `${a.method} ${a.url} via ${a.address}: ${head} in ${a.durationMs} ms`,
      ...(headers.length > 0 ? [`(${headers.join('; ')})`] : [])
    ].join(' ')
  }
  return [
    ...(last ? [`Last answer: ${describe(last)}`] : []),
    ...(noRoute ? [`No-route answer of the same listener: ${describe(noRoute)}`] : [])
  ]
}

/** What makes an answer worth a log line: a new kind of answer or a new status. */
const gist = (attempt: Attempt | undefined): string =>
  attempt === undefined
    ? ''
    : `${attempt.kind} ${attempt.answer.status ?? attempt.answer.error?.code ?? ''}`

/** "… not serving yet: GET http://shop.example.com:80/cart got 404 (no-route)", once per gist. */
function notYet(label: string, attempt: Attempt): string {
  const { request, answer } = attempt
  const got = answer.error ? answer.error.code : `got ${answer.status}`
  return `${label}: not serving yet: ${request.method} ${requestUrl(request)} ${got} (${attempt.kind}); retrying until the deadline`
}

/** Maps items through `work`, at most `limit` at a time, results in order. */
async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}
