// One line while a gate waits: how many Routes are ready, which parents are not and why, and the
// time left. Printed every heartbeat interval and whenever what it says changes, so a long wait is
// never silent and a quiet log means nothing moved.
import type { RouteVerdict } from '../model/types.ts'
import { safeLogLine } from './escape.ts'
import { formatDuration, formatParentRef, routeId } from './labels.ts'

/** Why a parent is still pending, in the words a reader of the log needs. */
const WAITING: Record<string, string> = {
  NoStatus: 'no status yet',
  StaleStatus: 'status of an older generation',
  ConditionMissing: 'a condition not written yet',
  ConditionUnknown: 'condition Unknown'
}

/** a longer list is cut: the line must stay one line */
const MAX_NAMED = 5

export class Heartbeat {
  /** the last line said, without the time left */
  private said: string | undefined
  /** whether each Route judged so far is ready */
  private readonly seen = new Map<string, boolean>()
  /** the waiting parents of each Route that is not ready, most recently judged last */
  private readonly waiting = new Map<string, string[]>()
  private ready = 0
  private waitingCount = 0

  constructor(private readonly deadline: number) {}

  /**
   * Takes a Route's new verdict into the running tallies: a watch event costs the line only that
   * Route's parents, however many Routes the gate waits for.
   */
  observe(key: string, verdict: RouteVerdict): void {
    this.forget(key)
    const ready = verdict.verdict === 'ready'
    this.seen.set(key, ready)
    if (ready) {
      this.ready++
      return
    }
    const names = notReady(verdict)
    this.waiting.set(key, names)
    this.waitingCount += names.length
  }

  forget(key: string): void {
    const ready = this.seen.get(key)
    if (ready === undefined) return
    this.seen.delete(key)
    if (ready) this.ready--
    this.waitingCount -= this.waiting.get(key)?.length ?? 0
    this.waiting.delete(key)
  }

  /**
   * The line, or undefined when it says what the last one said and `always` is false. `expected`:
   * how many Routes must be ready (by name), or undefined for those seen so far.
   */
  line(expected: number | undefined, now: number, always: boolean): string | undefined {
    const total = expected ?? this.seen.size
    const unseen = expected === undefined ? 0 : Math.max(0, expected - this.seen.size)
    const named = this.firstWaiting()
    const more = this.waitingCount - named.length
    const parts = [
      `${this.ready} of ${total} Route${total === 1 ? '' : 's'} ready`,
      ...(unseen > 0 ? [`${unseen} not found yet`] : []),
      ...(named.length > 0
        ? [`waiting on ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`]
        : [])
    ]
    const what = parts.join('; ')
    if (!always && what === this.said) return undefined
    this.said = what
    const left = formatDuration(this.deadline - now)
    return safeLogLine(`${what}; ${left} left`).replace(/\n/g, ' ')
  }

  private firstWaiting(): string[] {
    const named: string[] = []
    for (const names of this.waiting.values()) {
      named.push(...names.slice(0, MAX_NAMED - named.length))
      if (named.length === MAX_NAMED) break
    }
    return named
  }
}

function notReady(verdict: RouteVerdict): string[] {
  const route = verdict.route
  const name = routeId({ ...route, namespace: route.metadata.namespace, name: route.metadata.name })
  if (verdict.verdict === 'ready') return []
  const whole = verdict.findings[0]
  if (whole !== undefined || verdict.parents.length === 0) {
    return [`${name} (${whole?.waitingFor ?? whole?.reason ?? verdict.verdict})`]
  }
  // held until the cluster carries the merged files: one wait for the Route, named with its cause
  const held = verdict.parents.find((p) => p.findings[0]?.reason === 'NotSynced')?.findings[0]
  if (held?.waitingFor !== undefined) return [`${name} (${held.waitingFor})`]
  return verdict.parents
    .filter((p) => p.verdict !== 'ready')
    .map((p) => {
      const reason = p.findings[0]?.reason
      const why = reason === undefined ? p.verdict : (WAITING[reason] ?? `${p.verdict}: ${reason}`)
      return `${name} → ${formatParentRef(p.parentRef)} (${why})`
    })
}
