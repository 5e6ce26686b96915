// Reads the YAML that kubectl, helm template and route-gate dump print, one line at a time: block
// mappings and sequences, one-line plain and quoted scalars, literal block scalars (| and |-) and
// one-line flow collections. A dump is read once per run, so what it costs is first execution:
// js-yaml's general parser runs many small functions per character, cold; this runs a few string
// operations per line. Whatever else a text holds (anchors, tags, folded or multi-line scalars,
// complex or typed keys, a plain scalar the two YAML schemas could type differently) makes it
// decline with undefined, and js-yaml reads the text (fast-yaml.ts).
import type { ParsedDocument } from './parsed-document.ts'

/** Thrown to give the text to the general reader; never leaves this module. */
class Declined extends Error {}

/**
 * The lines that are neither blank nor a comment, as parallel arrays (a dump has hundreds of
 * thousands): indentation, trimmed content and 1-based line number. A compact mapping in a sequence
 * item rewrites its line.
 */
interface Cursor {
  raw: string[]
  indents: number[]
  texts: string[]
  numbers: number[]
  /** index into the significant lines */
  at: number
  /** the line each item of the root's `items` sequence starts on, while that sequence is read */
  itemLines?: number[]
}

const NULL = /^(?:~|null|Null|NULL)$/
const TRUE = /^(?:true|True|TRUE)$/
const FALSE = /^(?:false|False|FALSE)$/
// YAML 1.2's core schema, which both readers follow: decimal numbers are read here, the rarer forms
// (octal, hexadecimal, infinities, NaN) are left to them
const NUMBER = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/
const OTHER_NUMBER = /^(?:0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/
// a line break split('\n') misses, white space that trim() takes and YAML keeps, or a character YAML
// does not print (which the readers refuse)
const UNUSUAL_SPACE =
  /\r(?!\n)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/
// an indicator that starts something other than a plain scalar: an anchor, alias, tag, block scalar,
// directive, complex key, flow collection, comment or quote
const INDICATOR_START = /^(?:[&*!|>%@`?:,[\]{}#'"]|-(?:[ \t]|$))/

function decline(): never {
  throw new Declined()
}

export function parseBlockYaml(text: string): ParsedDocument[] | undefined {
  try {
    return readDocuments(cursorOf(text))
  } catch (error) {
    // a nesting deeper than the stack is the full readers' to refuse, with its line
    if (error instanceof Declined || error instanceof RangeError) return undefined
    throw error
  }
}

function cursorOf(text: string): Cursor {
  if (UNUSUAL_SPACE.test(text)) decline()
  const split = text.split('\n')
  const raw = text.includes('\r')
    ? split.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
    : split
  const c: Cursor = { raw, indents: [], texts: [], numbers: [], at: 0 }
  for (let i = 0; i < raw.length; i++) {
    const content = raw[i]!
    const indent = indentOf(content)
    const first = content.charCodeAt(indent)
    // a tab in the indentation, even of a blank line or a comment: go-yaml v2 refuses most
    if (first === 9) decline()
    // blank, or a comment
    if (Number.isNaN(first) || first === 35) continue
    let end = content.length
    while (end > indent && isWhite(content.charCodeAt(end - 1))) end--
    if (end === indent) continue
    c.indents.push(indent)
    c.texts.push(indent === 0 && end === content.length ? content : content.slice(indent, end))
    c.numbers.push(i + 1)
  }
  // no document at all: the readers count zero or one
  if (c.texts.length === 0) decline()
  return c
}

function indentOf(content: string): number {
  let indent = 0
  while (content.charCodeAt(indent) === 32) indent++
  return indent
}

const isWhite = (code: number): boolean => code === 32 || code === 9

/** Moves the cursor past the significant lines up to raw index `end` (exclusive). */
function skipTo(c: Cursor, end: number): void {
  while (c.at < c.numbers.length && c.numbers[c.at]! <= end) c.at++
}

function readDocuments(c: Cursor): ParsedDocument[] {
  const docs: ParsedDocument[] = []
  let started = false
  while (c.at < c.texts.length || !started) {
    if (c.texts[c.at] === '---' && c.indents[c.at] === 0) c.at++
    else if (started) decline()
    started = true
    if (c.at === c.texts.length || (c.texts[c.at] === '---' && c.indents[c.at] === 0)) {
      docs.push({ value: null, line: 0, itemLines: [] })
      continue
    }
    const text = c.texts[c.at]!
    if (text.startsWith('---') || text.startsWith('...') || text.startsWith('%')) decline()
    c.itemLines = undefined
    const line = c.numbers[c.at]!
    const value = readBlock(c, c.indents[c.at]!, true)
    docs.push({ value, line, itemLines: c.itemLines ?? [] })
  }
  return docs
}

/** `---` (or `...`, `--- x`) at the start of a line: the document ends */
const isMarker = (c: Cursor): boolean =>
  c.indents[c.at] === 0 && (c.texts[c.at]!.startsWith('---') || c.texts[c.at]!.startsWith('...'))

const isItem = (text: string): boolean => text === '-' || text.startsWith('- ')

function readBlock(c: Cursor, indent: number, root = false): unknown {
  if (isItem(c.texts[c.at]!)) return readSequence(c, indent)
  return readMapping(c, indent, root)
}

function readSequence(c: Cursor, indent: number, itemLines?: number[]): unknown[] {
  const items: unknown[] = []
  while (c.at < c.texts.length && c.indents[c.at] === indent && isItem(c.texts[c.at]!)) {
    const text = c.texts[c.at]!
    const start = indentOf(text.slice(1)) + 1
    // a tab after the dash indents what follows
    if (text.charCodeAt(start) === 9) decline()
    const rest = text.slice(start)
    if (rest === '') {
      c.at++
      // an empty item is null, at a place the readers may count differently
      if (c.at === c.texts.length || c.indents[c.at]! <= indent) decline()
      itemLines?.push(c.numbers[c.at]!)
      items.push(readBlock(c, c.indents[c.at]!))
      continue
    }
    itemLines?.push(c.numbers[c.at]!)
    if (isItem(rest)) decline()
    if (splitKey(rest) !== undefined) {
      // a compact mapping: its first key shares the item's line, the others align under it
      const column = indent + text.length - rest.length
      c.indents[c.at] = column
      c.texts[c.at] = rest
      items.push(readMapping(c, column, false))
    } else {
      items.push(readScalar(c, indent, rest))
    }
  }
  return items
}

function readMapping(c: Cursor, indent: number, root: boolean): Record<string, unknown> {
  const mapping: Record<string, unknown> = {}
  while (c.at < c.texts.length && c.indents[c.at]! >= indent && !isMarker(c)) {
    if (c.indents[c.at]! > indent || isItem(c.texts[c.at]!)) decline()
    const entry = splitKey(c.texts[c.at]!) ?? decline()
    if (Object.hasOwn(mapping, entry.key)) decline()
    mapping[entry.key] = readValue(c, indent, entry.rest, root && entry.key === 'items')
  }
  return mapping
}

/** The value after `key:` (`rest`), read from the line at the cursor and the lines it owns. */
function readValue(c: Cursor, indent: number, rest: string, rootItems: boolean): unknown {
  if (rest.startsWith('|')) return readLiteral(c, indent, rest)
  if (rest !== '' && !rest.startsWith('#')) {
    const value = readScalar(c, indent, rest)
    if (rootItems && Array.isArray(value) && value.length > 0) decline()
    if (rootItems) c.itemLines = []
    return value
  }
  c.at++
  const itemLines = rootItems ? (c.itemLines = []) : undefined
  if (c.at === c.texts.length) return null
  const next = c.indents[c.at]!
  if (next === indent && isItem(c.texts[c.at]!)) return readSequence(c, indent, itemLines)
  if (next <= indent) return null
  if (isItem(c.texts[c.at]!)) return readSequence(c, next, itemLines)
  return readBlock(c, next)
}

/** `| ` or `|-`: the lines indented past the key, as they are. */
function readLiteral(c: Cursor, indent: number, header: string): string {
  if (header !== '|' && header !== '|-') decline()
  const start = c.numbers[c.at]!
  const first = c.raw[start]
  if (first !== undefined && first.charCodeAt(indentOf(first)) === 9) decline()
  if (first === undefined || (first.trim() !== '' && indentOf(first) <= indent)) {
    // no content: an empty string, whichever the chomping
    c.at++
    return ''
  }
  const body: string[] = []
  let contentIndent = -1
  let end = start
  for (; end < c.raw.length; end++) {
    const content = c.raw[end]!
    const lineIndent = indentOf(content)
    // a tab where the indentation is: blank or content, the readers decide
    if (content.charCodeAt(lineIndent) === 9 && !(lineIndent >= contentIndent && contentIndent > 0))
      decline()
    if (lineIndent === content.length) {
      if (contentIndent === -1 || content.length > contentIndent) decline()
      body.push('')
      continue
    }
    if (contentIndent === -1) contentIndent = lineIndent
    if (lineIndent < contentIndent) break
    body.push(content.slice(contentIndent))
  }
  if (contentIndent <= indent) decline()
  while (body.at(-1) === '') body.pop()
  skipTo(c, end)
  if (c.at < c.texts.length && c.indents[c.at]! > indent) decline()
  return body.join('\n') + (header === '|' ? '\n' : '')
}

/** `key: rest` on one line, or undefined when the line holds no plain or quoted key. */
function splitKey(text: string): { key: string; rest: string } | undefined {
  if (text.startsWith('"') || text.startsWith("'")) {
    const quoted = readQuoted(text, 0)
    if (quoted === undefined) return undefined
    if (text[quoted.end] !== ':' || ![' ', undefined].includes(text[quoted.end + 1]))
      return undefined
    return { key: checkedKey(quoted.value), rest: text.slice(quoted.end + 1).trim() }
  }
  let colon = text.indexOf(': ')
  if (colon === -1 && text.endsWith(':')) colon = text.length - 1
  if (colon === -1 || INDICATOR_START.test(text)) return undefined
  const keyText = text.slice(0, colon).trimEnd()
  if (plainText(keyText) !== keyText || resolvePlain(keyText) !== keyText) decline()
  return { key: checkedKey(keyText), rest: text.slice(colon + 1).trim() }
}

/** Keys a reader treats specially (a merge, a prototype) or the empty key are js-yaml's to read. */
function checkedKey(key: string): string {
  if (key === '' || key === '<<' || key === '__proto__') decline()
  return key
}

/**
 * The scalar or flow collection that starts with `rest` on the cursor's line, with the lines that
 * continue it (more indented than `indent`): a long plain or single-quoted scalar, which kubectl
 * folds at 80 columns. Moves the cursor past them.
 */
function readScalar(c: Cursor, indent: number, rest: string): unknown {
  const { pieces, end } = continuation(c.raw, c.numbers[c.at]!, indent)
  c.at++
  skipTo(c, end)
  if (pieces.length === 0) return readOneLine(rest)
  const comment = pieces.findIndex((piece) => piece.startsWith('#'))
  const quote = rest[0] === "'" || rest[0] === '"'
  if (rest[0] === '{' || rest[0] === '[' || (quote && readQuoted(rest, 0) !== undefined)) {
    // complete on its line: what follows may only be comments
    if (pieces.some((piece) => piece !== '' && !piece.startsWith('#'))) decline()
    return readOneLine(rest)
  }
  if (rest[0] === '"') decline()
  if (quote) {
    const folded = fold([rest, ...pieces])
    const value = readQuoted(folded, 0)
    return value !== undefined && value.end === folded.length ? value.value : decline()
  }
  const body = comment === -1 ? pieces : pieces.slice(0, comment)
  if (comment !== -1 && pieces.slice(comment).some((p) => p !== '' && !p.startsWith('#'))) decline()
  // a comment ends a plain scalar: text on a later line is no continuation ("x # c" then "y" is not
  // "x y"; YAML, and so kubectl, refuses it), so the precise readers must say so
  if (plainText(rest) !== rest.trimEnd() && body.some((p) => p !== '')) decline()
  // a continuation line must not read as a key, a comment or anything but plain text
  if (body.some((p) => p !== '' && plainText(p) !== p)) decline()
  if (body.some((p) => INDICATOR_START.test(p))) decline()
  return resolvePlain(fold([plainText(rest), ...body]))
}

/** A scalar or flow collection that makes up the rest of its line, comments aside. */
function readOneLine(text: string): unknown {
  if (text[0] === '{' || text[0] === '[') return ended(text, readFlow(text, 0))
  if (text[0] === '"' || text[0] === "'") return ended(text, readQuoted(text, 0) ?? decline())
  return resolvePlain(plainText(text))
}

/** The value, when only white space or a comment follows it on its line. */
function ended<T>(text: string, read: { value: T; end: number }): T {
  const after = text.slice(read.end)
  return after.trim() === '' || /^\s+#/.test(after) ? read.value : decline()
}

/** A plain scalar's text on its line, its comment cut off. */
function plainText(text: string): string {
  const comment = text.indexOf(' #')
  const plain = (comment === -1 ? text : text.slice(0, comment)).trimEnd()
  if (/:[ \t]|:$|\t#/.test(plain)) decline()
  return plain
}

const NO_PIECES: string[] = []

/**
 * The lines after line `from` (1-based, so the index of the next one) indented past `indent`, as
 * trimmed text ('' for a blank one), and the index of the first line not taken.
 */
function continuation(
  raw: string[],
  from: number,
  indent: number
): { pieces: string[]; end: number } {
  // most values end on their line: the next is as little indented and not blank
  const next = raw[from]
  if (next === undefined) return { pieces: NO_PIECES, end: from }
  const nextIndent = indentOf(next)
  if (nextIndent <= indent && nextIndent < next.length && next.charCodeAt(nextIndent) !== 9) {
    return { pieces: NO_PIECES, end: from }
  }
  const pieces: string[] = []
  let end = from
  for (let i = from; i < raw.length; i++) {
    const content = raw[i]!
    const text = content.trim()
    if (text === '') {
      pieces.push('')
      continue
    }
    if (indentOf(content) <= indent) break
    pieces.push(text)
    end = i + 1
  }
  // blank lines after the last piece belong to no one
  while (pieces.at(-1) === '') pieces.pop()
  return { pieces, end }
}

/** Lines folded as YAML folds a flow scalar: one space between lines, a line break per blank line. */
function fold(lines: string[]): string {
  let text = lines[0]!
  let breaks = 0
  for (const line of lines.slice(1)) {
    if (line === '') {
      breaks++
      continue
    }
    text += breaks === 0 ? ` ${line}` : '\n'.repeat(breaks) + line
    breaks = 0
  }
  return text
}

function resolvePlain(text: string): unknown {
  // YAML 1.1's readings (yes, 010, 1_000 …) are the precise reader's: Kubernetes reads them so
  if (!readsAlike(text)) decline()
  const first = text.charCodeAt(0)
  // a letter that starts no null, boolean or number: a string, as most are
  if (((first | 32) >= 97 && (first | 32) <= 122 && !'nNtTfF'.includes(text[0]!)) || first > 127) {
    return text
  }
  if (NULL.test(text)) return null
  if (TRUE.test(text)) return true
  if (FALSE.test(text)) return false
  if (NUMBER.test(text)) {
    const value = Number(text)
    // more digits than a double holds, beyond its range, or a negative zero: the readers' own
    const digits = text.replace(/[^0-9]/g, '').length
    if (digits > 15 || !Number.isFinite(value) || Object.is(value, -0)) decline()
    return value
  }
  if (text === '' || OTHER_NUMBER.test(text) || INDICATOR_START.test(text)) decline()
  return text
}

/**
 * A quoted scalar that closes in `text`, or undefined. Double quotes take JSON's escapes; YAML's
 * others (\x, \e, \N, …) and raw control characters are js-yaml's to read.
 */
function readQuoted(text: string, start: number): { value: string; end: number } | undefined {
  if (text[start] === "'") {
    let end = start + 1
    for (; end < text.length; end++) {
      if (text[end] !== "'") continue
      if (text[end + 1] !== "'") break
      end++
    }
    if (end >= text.length) return undefined
    return { value: text.slice(start + 1, end).replaceAll("''", "'"), end: end + 1 }
  }
  let end = start + 1
  while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1
  if (end >= text.length) return undefined
  const body = text.slice(start, end + 1)
  if (/\\[^"\\/bfnrtu]/.test(body) || SLASH_ESCAPE.test(body)) decline()
  try {
    return { value: JSON.parse(body) as string, end: end + 1 }
  } catch {
    return decline()
  }
}

/** A one-line flow mapping or sequence from `start`, and where it ends. */
function readFlow(text: string, start: number): { value: unknown; end: number } {
  const mapping = text[start] === '{'
  const close = mapping ? '}' : ']'
  const value: unknown[] | Record<string, unknown> = mapping ? {} : []
  let at = skipSpaces(text, start + 1)
  if (text[at] === close) return { value, end: at + 1 }
  for (;;) {
    if (mapping) {
      const key = readFlowScalar(text, at)
      const name = typeof key.value === 'string' && key.value !== '' ? key.value : decline()
      at = skipSpaces(text, key.end)
      if (text[at] !== ':' || text[at + 1] !== ' ') decline()
      const item = readFlowItem(text, skipSpaces(text, at + 1))
      const map = value as Record<string, unknown>
      if (Object.hasOwn(map, checkedKey(name))) decline()
      map[name] = item.value
      at = item.end
    } else {
      const item = readFlowItem(text, at)
      ;(value as unknown[]).push(item.value)
      at = item.end
    }
    at = skipSpaces(text, at)
    if (text[at] === close) return { value, end: at + 1 }
    if (text[at] !== ',' || text[skipSpaces(text, at + 1)] === close) decline()
    at = skipSpaces(text, at + 1)
  }
}

function readFlowItem(text: string, at: number): { value: unknown; end: number } {
  if (text[at] === '{' || text[at] === '[') return readFlow(text, at)
  return readFlowScalar(text, at)
}

/** A quoted scalar, or a plain one up to `,`, `:` and the closing brackets. */
function readFlowScalar(text: string, at: number): { value: unknown; end: number } {
  if (text[at] === '"' || text[at] === "'") return readQuoted(text, at) ?? decline()
  const match = /^[^,:[\]{}#]*/.exec(text.slice(at))!
  const plain = match[0].trimEnd()
  // go-yaml v2 ends a plain scalar at a "?" inside [ ] or { }: the precise reader's to refuse
  if (plain === '' || plain.includes('?')) decline()
  return { value: resolvePlain(plain), end: at + match[0].length }
}

/** Past the white space between flow tokens, which may be tabs as well as spaces. */
function skipSpaces(text: string, at: number): number {
  while (text[at] === ' ' || text[at] === '\t') at++
  return at
}

// 1.1's booleans, its infinities, a number with a leading zero or base prefix, an underscore in a
// number, a merge key. A leading zero matters only where go-yaml v2 could read a number (strconv's
// base prefixes, digits, a fraction, an exponent): "0fa3e8b-05fb-…", a uid, is text to both.
const DIFFERS =
  /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|<<)$|^[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$|^[-+]?0(?:[xX][0-9a-fA-F_]*|[oObB][0-9_]*|[0-9_]+(?:\.[0-9_]*)?(?:[eE][-+]?[0-9_]*)?|[eE][-+]?[0-9_]*)$|^[-+.]?[0-9][^\s]*_/

/** Whether YAML 1.2's core schema reads this plain scalar (or key) as Kubernetes does. */
export function readsAlike(text: string): boolean {
  const c = text.charCodeAt(0) | 0x20
  // only y, n, o, <, +, -, . and digits start a scalar the two schemas read apart: most scalars pass here
  if (
    c !== 0x79 &&
    c !== 0x6e &&
    c !== 0x6f &&
    c !== 0x3c &&
    c !== 0x2b &&
    c !== 0x2d &&
    c !== 0x2e
  ) {
    if (c < 0x30 || c > 0x39) return true
  }
  return !DIFFERS.test(text)
}

/** A double-quoted scalar's raw text holds "\/", which JSON and YAML 1.2 take and go-yaml v2 refuses. */
export const SLASH_ESCAPE = /\\\//
