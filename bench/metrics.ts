// The API server's own count of requests (apiserver_request_total on /metrics). It has no user label,
// so a measurement is the difference between two readings minus what the bench itself sent; anything
// else running against the cluster at the time shows up too, which is why the bench also counts the
// measured process's requests exactly through its proxy (proxy.ts).
import type { AdminApi } from './api.ts'

export type Counters = Map<string, number>

export interface Series {
  verb: string
  resource: string
  subresource: string
  count: number
}

const LINE = /^apiserver_request_total\{([^}]*)\} (\S+)$/

function labelsOf(text: string): Record<string, string> {
  const labels: Record<string, string> = {}
  for (const match of text.matchAll(/(\w+)="([^"]*)"/g)) labels[match[1]!] = match[2]!
  return labels
}

export async function readCounters(api: AdminApi): Promise<Counters> {
  const counters: Counters = new Map()
  for (const line of (await api.text('GET', '/metrics')).split('\n')) {
    const match = LINE.exec(line)
    if (match) counters.set(match[1]!, Number(match[2]))
  }
  return counters
}

/** Requests completed between two readings, one entry per verb/resource/subresource. */
export function requestsBetween(before: Counters, after: Counters): Series[] {
  const out = new Map<string, Series>()
  for (const [key, value] of after) {
    const count = value - (before.get(key) ?? 0)
    if (count <= 0) continue
    const { verb = '', resource = '', subresource = '' } = labelsOf(key)
    const id = `${verb} ${resource} ${subresource}`
    const series = out.get(id) ?? { verb, resource, subresource, count: 0 }
    series.count += count
    out.set(id, series)
  }
  return [...out.values()].sort((a, b) => b.count - a.count)
}

/**
 * Total of the series, leaving out the status PATCHes the bench itself sends (route-gate and kubectl
 * never patch status) and the bench's one GET of /metrics.
 */
export function measuredRequests(series: Series[]): number {
  const total = series
    .filter((s) => !(s.verb === 'PATCH' && s.subresource === 'status'))
    .reduce((sum, s) => sum + s.count, 0)
  return Math.max(0, total - 1)
}
