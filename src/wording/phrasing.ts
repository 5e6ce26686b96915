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

export { formatDuration } from '../model/plain-text.ts'

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

/** A remediation with each sentence once: a gatherer's fix and a catalog's can say the same thing. */
export function uniqueSentences(text: string): string {
  return unique(text.split(/(?<=[.!?])\s+(?=[A-Z])/)).join(' ')
}

/** A kind in the plural, as a sentence names a list of them: Services, GatewayClasses. */
export function kinds(kind: string): string {
  return kind.endsWith('s') ? `${kind}es` : `${kind}s`
}
