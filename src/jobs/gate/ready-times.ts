// When the gate saw each Route become ready, for the report's time to ready. Only a transition the
// gate observed gives a time: a Route already ready at its first read has none, because how long it
// had been ready is not known, and a Route that falls back from ready loses its time.
import type { Verdict } from '../../model/types.ts'

export class ReadyTimes {
  private readonly notReadySeen = new Set<string>()
  private readonly readyAt = new Map<string, number | undefined>()

  /** Records the verdict a Route was just judged to have, at `now` (ms since the epoch). */
  observe(key: string, verdict: Verdict, now: number): void {
    if (verdict !== 'ready') {
      this.readyAt.delete(key)
      this.notReadySeen.add(key)
    } else if (!this.readyAt.has(key)) {
      this.readyAt.set(key, this.notReadySeen.has(key) ? now : undefined)
    }
  }

  /** The ISO time the Route was seen to become ready, if the gate saw that happen. */
  of(key: string): string | undefined {
    const at = this.readyAt.get(key)
    return at === undefined ? undefined : new Date(at).toISOString()
  }
}
