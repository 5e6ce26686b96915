// "Did you mean": the closest existing names to a name that matched nothing, by edit distance.
import { compareText } from './route-id.ts'

// two rows of the distance table, reused: a suggestion may compare thousands of names
let rows = [new Int32Array(64), new Int32Array(64)] as const

/** Edit distance, or `budget + 1` as soon as every way through is over the budget. */
function editDistance(a: string, b: string, budget: number): number {
  if (Math.abs(a.length - b.length) > budget) return budget + 1
  // a shared prefix and suffix cost nothing, and look-alike names ("tenant-17-svc") are mostly that
  let from = 0
  while (from < a.length && from < b.length && a.charCodeAt(from) === b.charCodeAt(from)) from++
  let toA = a.length
  let toB = b.length
  while (toA > from && toB > from && a.charCodeAt(toA - 1) === b.charCodeAt(toB - 1)) {
    toA--
    toB--
  }
  const width = toB - from
  if (rows[0].length <= width) rows = [new Int32Array(width + 1), new Int32Array(width + 1)]
  let [previous, current] = rows
  for (let j = 0; j <= width; j++) previous[j] = j
  for (let i = 1; i <= toA - from; i++) {
    const char = a.charCodeAt(from + i - 1)
    current[0] = i
    let best = i
    for (let j = 1; j <= width; j++) {
      const substitution = previous[j - 1]! + (char === b.charCodeAt(from + j - 1) ? 0 : 1)
      const cell = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution)
      current[j] = cell
      if (cell < best) best = cell
    }
    // a row only grows from here on, so a row over the budget decides the answer
    if (best > budget) return budget + 1
    ;[previous, current] = [current, previous]
  }
  const distance = previous[width]!
  return distance > budget ? budget + 1 : distance
}

/** Within a third of the name's length in edits (at least 2). */
const budgetOf = (wanted: string): number => Math.max(2, Math.floor(wanted.length / 3))

function popCount(bits: number): number {
  let v = bits - ((bits >>> 1) & 0x55555555)
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333)
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24
}

/** The characters of a name as 64 bits; two characters sharing a bit only weaken the bound below. */
interface Signature {
  low: number
  high: number
}

function signatureOf(text: string): Signature {
  const signature = { low: 0, high: 0 }
  for (let i = 0; i < text.length; i++) {
    const bit = text.charCodeAt(i) % 64
    if (bit < 32) signature.low |= 1 << bit
    else signature.high |= 1 << (bit - 32)
  }
  return signature
}

/** Every character one name has and the other lacks costs an edit: a floor under the distance. */
function distanceFloor(a: Signature, b: Signature): number {
  const onlyA = popCount(a.low & ~b.low) + popCount(a.high & ~b.high)
  const onlyB = popCount(b.low & ~a.low) + popCount(b.high & ~a.high)
  return Math.max(onlyA, onlyB)
}

interface Entry {
  lower: string
  /** the names with this lower case */
  names: string[]
  signature: Signature
}

interface Ranked {
  name: string
  distance: number
}

/** The best `limit` names so far, closest first and then by name. */
class Ranking {
  readonly best: Ranked[] = []
  private readonly limit: number

  constructor(limit: number) {
    this.limit = limit
  }

  /** The largest distance that can still enter. */
  cap(budget: number): number {
    const last = this.best[this.limit - 1]
    return last === undefined ? budget : Math.min(budget, last.distance)
  }

  offer(entry: Ranked): void {
    const at = this.best.findIndex(
      (b) =>
        entry.distance < b.distance ||
        (entry.distance === b.distance && compareText(entry.name, b.name) < 0)
    )
    if (at === -1) this.best.push(entry)
    else this.best.splice(at, 0, entry)
    this.best.length = Math.min(this.best.length, this.limit)
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

/**
 * The names of one list, indexed so that a suggestion looks only at names that can qualify: those
 * within the edit budget in length whose characters do not already rule them out, and those
 * containing the name or contained in it, found through their grams. The edit budget shrinks to the
 * distance of the third-best name found, so a namespace of thousands of look-alike Services costs a
 * few bit operations per Service, never an edit distance each.
 */
export class NameIndex {
  private readonly byLower = new Map<string, Entry>()
  private readonly byLength = new Map<number, Entry[]>()
  /** the entries holding each gram, one map per gram length, built when first needed */
  private readonly grams = new Map<number, Map<string, Entry[]>>()

  constructor(names: Iterable<string>) {
    for (const name of new Set(names)) {
      const lower = name.toLowerCase()
      const known = this.byLower.get(lower)
      if (known) {
        known.names.push(name)
        continue
      }
      const entry = { lower, names: [name], signature: signatureOf(lower) }
      this.byLower.set(lower, entry)
      push(this.byLength, lower.length, entry)
    }
  }

  /**
   * The names close enough to be a plausible typo or variant of `name`, closest first: within a
   * third of its length in edits (at least 2), or one containing the other ("cart" / "cart-svc").
   * `keep` drops names before they are ranked (a Service without the port, say).
   */
  nearest(name: string, limit = 3, keep: (name: string) => boolean = () => true): string[] {
    const wanted = name.toLowerCase()
    const budget = budgetOf(wanted)
    const ranking = new Ranking(limit)
    const offer = (entry: Entry, distance: number): void => {
      for (const candidate of entry.names)
        if (candidate !== name && keep(candidate)) ranking.offer({ name: candidate, distance })
    }
    // a name containing the other qualifies at any distance, and still ranks by it
    const containers = this.containing(wanted)
    for (const entry of containers)
      offer(entry, editDistance(wanted, entry.lower, Number.POSITIVE_INFINITY))
    // the names by how few edits they may need, fewest first, so the budget shrinks early and most
    // names are ruled out by that floor alone
    const byFloor: Entry[][] = Array.from({ length: budget + 1 }, () => [])
    const wantedSignature = signatureOf(wanted)
    for (let length = wanted.length - budget; length <= wanted.length + budget; length++) {
      for (const entry of this.byLength.get(length) ?? []) {
        if (containers.has(entry)) continue
        const floor = Math.max(
          Math.abs(length - wanted.length),
          distanceFloor(wantedSignature, entry.signature)
        )
        if (floor <= budget) byFloor[floor]!.push(entry)
      }
    }
    for (const [floor, entries] of byFloor.entries()) {
      for (const entry of entries) {
        const cap = ranking.cap(budget)
        if (floor > cap) break
        const distance = editDistance(wanted, entry.lower, cap)
        if (distance <= cap) offer(entry, distance)
      }
    }
    return ranking.best.map((r) => r.name)
  }

  /** Entries containing `wanted` or contained in it. */
  private containing(wanted: string): Set<Entry> {
    const found = new Set<Entry>()
    if (wanted.length === 0) {
      for (const entry of this.byLower.values()) found.add(entry)
      return found
    }
    const size = Math.min(3, wanted.length)
    const grams = this.gramsOf(size)
    let rarest: Entry[] | undefined
    for (let i = 0; i + size <= wanted.length; i++) {
      const holders = grams.get(wanted.slice(i, i + size)) ?? []
      if (!rarest || holders.length < rarest.length) rarest = holders
    }
    for (const entry of rarest ?? []) if (entry.lower.includes(wanted)) found.add(entry)
    // the parts of `wanted` of the lengths some name has
    for (const length of this.byLength.keys()) {
      for (let i = 0; i + length <= wanted.length; i++) {
        const part = this.byLower.get(wanted.slice(i, i + length))
        if (part) found.add(part)
      }
    }
    return found
  }

  private gramsOf(size: number): Map<string, Entry[]> {
    const known = this.grams.get(size)
    if (known) return known
    const grams = new Map<string, Entry[]>()
    for (const entry of this.byLower.values()) {
      const seen = new Set<string>()
      for (let i = 0; i + size <= entry.lower.length; i++) seen.add(entry.lower.slice(i, i + size))
      for (const gram of seen) push(grams, gram, entry)
    }
    this.grams.set(size, grams)
    return grams
  }
}

/** `NameIndex.nearest` over a list used once: a mistyped flag or listener name. */
export function nearestNames(name: string, candidates: Iterable<string>, limit = 3): string[] {
  return new NameIndex(candidates).nearest(name, limit)
}

/** "a", "a or b", "a, b or c" with each name quoted. */
export function oneOf(names: string[]): string {
  const quoted = names.map((n) => `"${n}"`)
  if (quoted.length <= 1) return quoted.join('')
  return `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`
}
