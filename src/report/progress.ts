// Log lines while a gate waits: one line when a parent is first seen and one each time its state
// changes, so a long wait shows movement without repeating itself every poll.

import type { RouteVerdict, Verdict } from '../model/types.ts'
import { safeLogLine } from './escape.ts'
import { formatDuration, formatParentRef, routeId } from './labels.ts'

function stateLabel(verdict: Verdict, reason: string | undefined): string {
  return reason === undefined ? verdict : `${verdict} (${reason})`
}

export class ProgressLog {
  private readonly start: number
  /** the last state logged, keyed by Route and parent */
  private readonly states = new Map<string, string>()

  constructor(start: number) {
    this.start = start
  }

  update(verdicts: RouteVerdict[], now: number): string[] {
    const lines: string[] = []
    const record = (key: string, subject: string, state: string): void => {
      const previous = this.states.get(key)
      if (previous === state) return
      this.states.set(key, state)
      const change =
        previous === undefined
          ? state
          : `${previous} → ${state} after ${formatDuration(now - this.start)}`
      lines.push(safeLogLine(`${subject} ${change}`).replace(/\n/g, ' '))
    }
    for (const { route, verdict, parents, findings } of verdicts) {
      const name = routeId({
        ...route,
        namespace: route.metadata.namespace,
        name: route.metadata.name
      })
      const routeKey = `${route.kind}\u0000${route.metadata.namespace}\u0000${route.metadata.name}`
      if (parents.length === 0 || findings.length > 0) {
        record(routeKey, `${name}:`, stateLabel(verdict, findings[0]?.reason))
      }
      parents.forEach((parent, index) => {
        record(
          `${routeKey}\u0000${index}`,
          `${name}: parent ${formatParentRef(parent.parentRef)}`,
          stateLabel(parent.verdict, parent.findings[0]?.reason)
        )
      })
    }
    return lines
  }
}
