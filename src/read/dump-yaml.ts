// The first YAML reader, for the one document of a dump as kubectl and route-gate dump print it:
// block mappings and sequences, plain and single-quoted scalars (folded over lines too, as long
// messages are), one-line double-quoted scalars, literal blocks, {} and [], and comment lines. It
// reads by offsets into the text, with no string per line, so a 5,000-Route dump costs a fraction
// of what the line reader (block-yaml.ts) spends on it. Anything else (a comment after content, a
// flow collection, an anchor, a tag, a folded block or a multi-line double-quoted scalar, a second
// document, a key that is not a plain string, a number written any way but plain decimal) makes it
// answer undefined, and the line reader, then js-yaml and the precise reader take the text: this
// one must never read a text otherwise than the precise reader would, so it refuses whatever it
// would have to judge.
import type { ParsedDocument } from './parsed-document.ts'
import { readsAlike, SLASH_ESCAPE } from './block-yaml.ts'

/** Thrown for anything outside the subset; parseDumpYaml turns it into undefined. */
const OUTSIDE = new Error('outside the block YAML subset')

function outside(): never {
  throw OUTSIDE
}

// tabs, carriage returns, controls, C1 controls and byte order marks: the full readers judge them
const UNUSUAL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\ufeff\ufffe\uffff]/

/** The lines of the text, one at a time, blank lines skipped. */
class Lines {
  /** offsets of the current line's start and end (its \n, or the text's end) */
  start = -1
  end = -1
  /** the column where the current line's unread content starts: its indent, or past "- " */
  col = 0
  /** the current line, 1-based */
  line = 0
  done = false

  readonly text: string

  constructor(text: string) {
    this.text = text
    this.next()
  }

  get at(): number {
    return this.start + this.col
  }

  /**
   * To the next line that is neither blank nor a comment (a dump's header is one); a directive or a
   * document marker is outside.
   */
  next(): void {
    const t = this.text
    for (;;) {
      const start = this.end + 1
      if (start >= t.length) {
        this.done = true
        return
      }
      this.line++
      const newline = t.indexOf('\n', start)
      this.start = start
      this.end = newline === -1 ? t.length : newline
      let i = start
      while (t.charCodeAt(i) === 0x20) i++
      if (i === this.end || t.charCodeAt(i) === 0x23 /* # */) continue
      if (t.charCodeAt(i) === 0x25 /* % */) outside()
      if (i === start && (t.startsWith('---', i) || t.startsWith('...', i))) outside()
      this.col = i - start
      return
    }
  }

  /** Whether the content is a sequence entry: "-" then a space or the line's end. */
  entry(): boolean {
    const at = this.at
    return this.text.charCodeAt(at) === 0x2d && (at + 1 === this.end || this.text[at + 1] === ' ')
  }

  /** The offset of the ":" that ends a plain key at the content, or -1 when it is no key. */
  keyEnd(): number {
    const t = this.text
    if (STARTS_OTHERWISE.has(t[this.at] ?? '')) return -1
    for (let i = t.indexOf(':', this.at); i !== -1 && i < this.end; i = t.indexOf(':', i + 1)) {
      if (i + 1 === this.end || t[i + 1] === ' ') return i
    }
    return -1
  }
}

// YAML indicators: a plain scalar or key starting with one of these is read by the full readers
const STARTS_OTHERWISE = new Set([...'-?:,[]{}#&*!|>\'"%@`'])

const NULL = /^(?:~|[Nn]ull|NULL)$/
const BOOLEANS: Record<string, boolean> = {
  true: true,
  True: true,
  TRUE: true,
  false: false,
  False: false,
  FALSE: false
}
/** A decimal integer JavaScript holds exactly, written as the core schema and JSON agree. */
const PLAIN_INTEGER = /^(?:0|-?[1-9][0-9]{0,14})$/
/** Every other number of the YAML 1.2 core schema (octal, hex, signed, float, .inf, .nan). */
const OTHER_NUMBER =
  /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/

/** A plain scalar as the core schema reads it. */
function resolve(text: string): unknown {
  // YAML 1.1's readings (yes, 010, 1_000 …) are the precise reader's: Kubernetes reads them so
  if (!readsAlike(text)) outside()
  // most scalars and keys start with a letter; only null and booleans (n, t, f) and no number do
  const first = text.charCodeAt(0) | 0x20
  const letter = first >= 0x61 && first <= 0x7a
  if (letter && first !== 0x6e && first !== 0x74 && first !== 0x66) return text
  if (NULL.test(text)) return null
  const boolean = BOOLEANS[text]
  if (boolean !== undefined) return boolean
  if (letter) return text
  if (PLAIN_INTEGER.test(text)) return Number(text)
  if (OTHER_NUMBER.test(text)) outside()
  return text
}

/** One line of a plain scalar from `from` to `end`, trailing spaces trimmed. */
function plainLine(t: string, from: number, end: number): string {
  let last = end
  while (t.charCodeAt(last - 1) === 0x20) last--
  const text = t.slice(from, last)
  const first = text[0] ?? ''
  // "-5" and "-x" are plain; "- x" would be a sequence where none may start
  if (STARTS_OTHERWISE.has(first) && (first !== '-' || text.length === 1 || text[1] === ' '))
    outside()
  if (text.includes(': ') || text.includes(' #') || text.endsWith(':')) outside()
  return text
}

/**
 * Walks the lines after the current one for a scalar written over several: `take` gets each line
 * that is not blank (where its text starts and ends, and its column) and returns what the scalar
 * keeps of it, or undefined where the scalar has ended; `blank` may refuse a blank line by its
 * column. Blank lines between kept ones come back as ''. Leaves the cursor on the last line kept.
 */
function scalarLines(
  c: Lines,
  indent: number,
  take: (
    t: string,
    from: number,
    end: number,
    column: number,
    indent: number
  ) => string | undefined,
  blank?: (column: number) => void
): string[] {
  const t = c.text
  const lines: string[] = []
  let blanks = 0
  let line = c.line
  for (let start = c.end + 1; start < t.length;) {
    const newline = t.indexOf('\n', start)
    const end = newline === -1 ? t.length : newline
    line++
    let i = start
    while (i < end && t.charCodeAt(i) === 0x20) i++
    if (i === end) {
      blank?.(i - start)
      blanks++
    } else {
      const text = take(t, i, end, i - start, indent)
      if (text === undefined) break
      for (; blanks > 0; blanks--) lines.push('')
      lines.push(text)
      c.end = end
      c.line = line
    }
    start = end + 1
  }
  return lines
}

/**
 * A line of a plain scalar folded over several: one indented deeper than `indent`, trimmed. A
 * comment ends the scalar; a deeper line after it is then outside (see scalar).
 */
function foldedLine(
  t: string,
  from: number,
  end: number,
  column: number,
  indent: number
): string | undefined {
  if (column <= indent || t.charCodeAt(from) === 0x23 /* # */) return undefined
  return plainLine(t, from, end)
}

/** A plain scalar from `from`, over the lines below it indented deeper than `indent`. */
function plain(c: Lines, from: number, indent: number): unknown {
  const first = plainLine(c.text, from, c.end)
  const more = scalarLines(c, indent, foldedLine)
  if (more.length === 0) return resolve(first)
  // folded: a line break is a space, each blank line a line break
  let text = first
  let breaks = 0
  for (const line of more) {
    if (line === '') {
      breaks++
      continue
    }
    text += breaks === 0 ? ` ${line}` : `${'\n'.repeat(breaks)}${line}`
    breaks = 0
  }
  return resolve(text)
}

/** Whether only spaces follow `from` on the line. */
function restIsBlank(t: string, from: number, end: number): boolean {
  for (let i = from; i < end; i++) if (t.charCodeAt(i) !== 0x20) return false
  return true
}

/** A double-quoted scalar that ends on its line; escapes that JSON spells the same way only. */
function doubleQuoted(t: string, from: number, end: number): string {
  let i = from + 1
  while (i < end && t[i] !== '"') i += t[i] === '\\' ? 2 : 1
  if (i >= end || !restIsBlank(t, i + 1, end)) outside()
  const body = t.slice(from + 1, i)
  if (!body.includes('\\')) return body
  if (SLASH_ESCAPE.test(body)) outside()
  try {
    return JSON.parse(`"${body}"`) as string
  } catch {
    return outside()
  }
}

/** The quote that closes a single-quoted scalar between `from` and `end` ('' is a quote), or -1. */
function closingQuote(t: string, from: number, end: number): number {
  for (let i = t.indexOf("'", from); i !== -1 && i < end; i = t.indexOf("'", i + 2)) {
    if (t[i + 1] !== "'") return i
  }
  return -1
}

/**
 * A single-quoted scalar ('' is a quote), on its line or folded over the lines below it indented
 * deeper than `indent` (a line break is a space, a blank line a line break, and the spaces around a
 * break go); leaves the cursor on its last line.
 */
function singleQuoted(c: Lines, from: number, indent: number): string {
  const t = c.text
  let text = ''
  let breaks = -1
  let start = from + 1
  for (;;) {
    const close = closingQuote(t, start, c.end)
    let last = close === -1 ? c.end : close
    if (close === -1) while (last > start && t.charCodeAt(last - 1) === 0x20) last--
    text += (breaks === -1 ? '' : breaks === 0 ? ' ' : '\n'.repeat(breaks)) + t.slice(start, last)
    if (close !== -1) {
      if (!restIsBlank(t, close + 1, c.end)) outside()
      return text.replaceAll("''", "'")
    }
    breaks = 0
    for (;;) {
      start = c.end + 1
      if (start >= t.length) outside()
      const newline = t.indexOf('\n', start)
      c.end = newline === -1 ? t.length : newline
      c.line++
      while (start < c.end && t.charCodeAt(start) === 0x20) start++
      if (start < c.end) break
      breaks++
    }
    if (start - (t.lastIndexOf('\n', start - 1) + 1) <= indent) outside()
  }
}

/** {} or [] alone. */
function emptyFlow(t: string, from: number, end: number): unknown {
  const pair = t.slice(from, from + 2)
  if (!restIsBlank(t, from + 2, end)) outside()
  if (pair === '{}') return {}
  if (pair === '[]') return []
  return outside()
}

/**
 * A literal block scalar ("|" or "|-") whose header is at `from`, its lines more indented than
 * `indent`; leaves the cursor on its last line. Blank lines before its first line, or longer than its
 * indent, are outside.
 */
function literal(c: Lines, from: number, indent: number): string {
  const t = c.text
  const strip = t[from + 1] === '-'
  if (!restIsBlank(t, from + (strip ? 2 : 1), c.end)) outside()
  // the first line that is not blank sets the block's indentation
  let blockIndent = -1
  const blockLine = (_: string, at: number, end: number, column: number): string | undefined => {
    if (blockIndent === -1) {
      if (column <= indent) return undefined
      blockIndent = column
    }
    if (column >= blockIndent) return t.slice(at - column + blockIndent, end)
    if (column > indent) outside()
    return undefined
  }
  const lines = scalarLines(c, indent, blockLine, (column) => {
    if (blockIndent === -1 || column > blockIndent) outside()
  })
  const body = lines.join('\n')
  // clip keeps one final line break, strip none; the blank lines after the block are no content
  return strip || body === '' ? body : `${body}\n`
}

/**
 * The scalar at `from` on the current line, the value of an entry indented `indent`; moves to the
 * line after it. A line after it indented deeper would continue it (a multi-line scalar): outside.
 */
function scalar(c: Lines, from: number, indent: number): unknown {
  const t = c.text
  const first = t[from]
  let value: unknown
  if (first === '"') value = doubleQuoted(t, from, c.end)
  else if (first === "'") value = singleQuoted(c, from, indent)
  else if (first === '|') value = literal(c, from, indent)
  else if (first === '{' || first === '[') value = emptyFlow(t, from, c.end)
  else value = plain(c, from, indent)
  c.next()
  if (!c.done && c.col > indent) outside()
  return value
}

/** A plain key from the content to `colon`. */
function key(c: Lines, colon: number): string {
  const text = c.text.slice(c.at, colon)
  if (text.endsWith(' ') || text.includes(' #') || text === '__proto__' || text === '<<') outside()
  if (typeof resolve(text) !== 'string') outside()
  return text
}

/**
 * The value of a mapping entry indented `indent` whose ":" is at `colon`: on the same line, or the
 * block below it (a sequence may sit at the key's own indent). `items` collects the lines of the
 * items of a sequence value.
 */
function valueAfter(c: Lines, colon: number, indent: number, items?: number[]): unknown {
  const t = c.text
  let from = colon + 1
  while (from < c.end && t.charCodeAt(from) === 0x20) from++
  if (from < c.end) return scalar(c, from, indent)
  c.next()
  if (c.done || c.col < indent) return null
  if (c.col === indent) return c.entry() ? sequence(c, indent, items) : null
  if (c.entry()) return sequence(c, c.col, items)
  if (c.keyEnd() !== -1) return mapping(c, c.col)
  return outside()
}

/** A block mapping whose keys are indented `indent`; `items` as in valueAfter, for its `items`. */
function mapping(c: Lines, indent: number, items?: number[]): Record<string, unknown> {
  const map: Record<string, unknown> = {}
  while (!c.done && c.col === indent) {
    const colon = c.keyEnd()
    if (colon === -1) outside()
    const name = key(c, colon)
    // a repeated key: the precise reader refuses it, with its line
    if (Object.hasOwn(map, name)) outside()
    map[name] = valueAfter(c, colon, indent, name === 'items' ? items : undefined)
  }
  if (!c.done && c.col > indent) outside()
  return map
}

/**
 * A block sequence whose "-" are indented `indent`. An entry's content on the "-" line is indented
 * at its own column (a compact mapping); `items` collects the line where each entry starts.
 */
function sequence(c: Lines, indent: number, items?: number[]): unknown[] {
  const list: unknown[] = []
  const t = c.text
  while (!c.done && c.col === indent && c.entry()) {
    let from = c.at + 1
    while (from < c.end && t.charCodeAt(from) === 0x20) from++
    if (from === c.end) {
      // "-" alone: the entry is the block below it
      c.next()
      if (c.done || c.col <= indent) outside()
      items?.push(c.line)
      list.push(c.entry() ? sequence(c, c.col) : mapping(c, c.col))
      continue
    }
    items?.push(c.line)
    c.col = from - c.start
    if (c.entry()) outside()
    list.push(c.keyEnd() === -1 ? scalar(c, from, indent) : mapping(c, c.col))
  }
  if (!c.done && c.col > indent) outside()
  return list
}

/**
 * The one document of a text in the block subset, or undefined when the text is outside it (then
 * the full readers read it).
 */
export function parseDumpYaml(text: string): ParsedDocument[] | undefined {
  if (UNUSUAL.test(text)) return undefined
  try {
    const c = new Lines(text)
    if (c.done) return undefined
    const line = c.line
    const itemLines: number[] = []
    let value: unknown
    if (c.entry()) value = sequence(c, c.col)
    else if (c.keyEnd() !== -1) value = mapping(c, c.col, itemLines)
    else return undefined
    if (!c.done) return undefined
    return [{ value, line, itemLines }]
  } catch {
    // outside the subset, or anything unforeseen (a nesting too deep for the stack): the full
    // readers read the text and word any error
    return undefined
  }
}
