// "Did you mean": the closest existing names to a name that matched nothing, by edit distance.
import { compareText } from './route-id.ts'

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution))
    }
    previous = current
  }
  return previous[b.length] ?? 0
}

/**
 * Candidates close enough to be a plausible typo or variant of `name`, closest first: within a third
 * of the name's length in edits (at least 2), or one containing the other ("cart" / "cart-svc").
 */
export function nearestNames(name: string, candidates: string[], limit = 3): string[] {
  const wanted = name.toLowerCase()
  const budget = Math.max(2, Math.floor(wanted.length / 3))
  return [...new Set(candidates)]
    .filter((candidate) => candidate !== name)
    .map((candidate) => {
      const lower = candidate.toLowerCase()
      const contains = lower.includes(wanted) || wanted.includes(lower)
      return { candidate, distance: editDistance(wanted, lower), contains }
    })
    .filter((c) => c.distance <= budget || c.contains)
    .sort((a, b) => a.distance - b.distance || compareText(a.candidate, b.candidate))
    .slice(0, limit)
    .map((c) => c.candidate)
}

/** "a", "a or b", "a, b or c" with each name quoted. */
export function oneOf(names: string[]): string {
  const quoted = names.map((n) => `"${n}"`)
  if (quoted.length <= 1) return quoted.join('')
  return `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`
}
