// Small text helpers shared by the evidence gatherers.

/** A controller's message inside one of our sentences: control characters (newlines) become spaces. */
export function quoted(message: string | undefined): string {
  return (message ?? '').replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()
}

/** "Programmed=False (Invalid): bad config", "Accepted=Unknown (Pending)" */
export function describeCondition(c: {
  type: string
  status: string
  reason?: string
  message?: string
}): string {
  const reason = c.reason ? ` (${c.reason})` : ''
  const message = quoted(c.message)
  return `${c.type}=${c.status}${reason}${message ? `: ${message}` : ''}`
}

/** "45s", "12m", "3h 5m", "2d 4h" */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m}m`
  const h = Math.floor(m / 60)
  if (h < 48) return m % 60 === 0 ? `${h}h` : `${h}h ${m % 60}m`
  const d = Math.floor(h / 24)
  return h % 24 === 0 ? `${d}d` : `${d}d ${h % 24}h`
}

export function unique<T>(items: T[]): T[] {
  return [...new Set(items)]
}

/** "a", "a and b", "a, b and c" */
export function listing(items: string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
