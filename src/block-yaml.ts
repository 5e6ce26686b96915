// Reads the YAML that kubectl, helm template and route-gate dump print, one line at a time: block
// mappings and sequences, one-line plain and quoted scalars, literal block scalars (| and |-) and
// one-line flow collections. A dump is read once per run, so what it costs is first execution:
// js-yaml's general parser runs many small functions per character, cold; this runs a few string
// operations per line. Whatever else a text holds (anchors, tags, folded or multi-line scalars,
// complex or typed keys, a plain scalar the two YAML schemas could type differently) makes it
// decline with undefined, and js-yaml reads the text (fast-yaml.ts).
import type { ParsedDocument } from './fast-yaml.ts'

/** Thrown to give the text to the general reader; never leaves this module. */
class Declined extends Error {}

/** A line that is neither blank nor a comment: its indentation and its trimmed content. */
interface Line {
  indent: number
  text: string
  /** 1-based */
  number: number
}

interface Cursor {
  raw: string[]
  /** the significant lines, in order; a compact mapping in a sequence item rewrites its line */
  lines: Line[]
  /** index into lines */
  at: number
  /** the line each item of the root's `items` sequence starts on, while that sequence is read */
  itemLines?: number[]
}

const NULL = /^(?:~|null|Null|NULL)$/
const TRUE = /^(?:true|True|TRUE)$/
const FALSE = /^(?:false|False|FALSE)$/
// integers every reader takes alike: no sign but minus, no leading zero, exact in a double
const INTEGER = /^(?:0|-?[1-9][0-9]{0,14})$/
// a line break split('\n') misses, white space that trim() takes and YAML keeps, or a character YAML
// does not print (which the readers refuse)
const UNUSUAL_SPACE =
  /\r(?!\n)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/
// what could start a number, a special float, a timestamp or an indicator: left to js-yaml
const AMBIGUOUS_START = /^[-+.0-9&*!|>%@`?,[\]{}#'"]/

function decline(): never {
  throw new Declined()
}

export function parseBlockYaml(text: string): ParsedDocument[] | undefined {
  try {
    return readDocuments(cursorOf(text))
  } catch (error) {
    if (error instanceof Declined) return undefined
    throw error
  }
}

function cursorOf(text: string): Cursor {
  if (UNUSUAL_SPACE.test(text)) decline()
  const raw = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
  const lines: Line[] = []
  raw.forEach((content, i) => {
    const text = content.trim()
    if (text === '' || text.startsWith('#')) return
    const indent = content.length - content.trimStart().length
    if (content.slice(0, indent).includes('\t')) decline()
    lines.push({ indent, text, number: i + 1 })
  })
  // no document at all: the readers count zero or one
  if (lines.length === 0) decline()
  return { raw, lines, at: 0 }
}

function readDocuments(c: Cursor): ParsedDocument[] {
  const docs: ParsedDocument[] = []
  let started = false
  while (c.at < c.lines.length || !started) {
    const line = c.lines[c.at]
    if (line?.text === '---' && line.indent === 0) c.at++
    else if (started) decline()
    started = true
    const next = c.lines[c.at]
    if (next === undefined || (next.text === '---' && next.indent === 0)) {
      docs.push({ value: null, line: 0, itemLines: [] })
      continue
    }
    if (next.text.startsWith('---') || next.text.startsWith('...') || next.text.startsWith('%')) {
      decline()
    }
    c.itemLines = undefined
    const value = readBlock(c, next.indent, true)
    docs.push({ value, line: next.number, itemLines: c.itemLines ?? [] })
  }
  return docs
}

/** `---` (or `...`, `--- x`) at the start of a line: the document ends */
const isMarker = (line: Line): boolean =>
  line.indent === 0 && (line.text.startsWith('---') || line.text.startsWith('...'))

const isItem = (text: string): boolean => text === '-' || text.startsWith('- ')

function readBlock(c: Cursor, indent: number, root = false): unknown {
  const line = c.lines[c.at]!
  if (isItem(line.text)) return readSequence(c, indent)
  if (AMBIGUOUS_START.test(line.text) && !/^["']/.test(line.text)) decline()
  return readMapping(c, indent, root)
}

function readSequence(c: Cursor, indent: number, itemLines?: number[]): unknown[] {
  const items: unknown[] = []
  for (let line = c.lines[c.at]; line?.indent === indent && isItem(line.text);) {
    const rest = line.text.slice(1).trimStart()
    if (rest === '') {
      c.at++
      const child = c.lines[c.at]
      // an empty item is null, at a place the readers may count differently
      if (child === undefined || child.indent <= indent) decline()
      itemLines?.push(child.number)
      items.push(readBlock(c, child.indent))
    } else {
      itemLines?.push(line.number)
      if (isItem(rest)) decline()
      const column = indent + line.text.length - rest.length
      if (splitKey(rest) !== undefined) {
        // a compact mapping: its first key shares the item's line, the others align under it
        c.lines[c.at] = { indent: column, text: rest, number: line.number }
        items.push(readMapping(c, column, false))
      } else {
        items.push(readInline(rest))
        c.at++
        endOfValue(c, indent)
      }
    }
    line = c.lines[c.at]
  }
  return items
}

/** After a one-line value, a more indented line would continue it: left to js-yaml. */
function endOfValue(c: Cursor, indent: number): void {
  const next = c.lines[c.at]
  if (next !== undefined && next.indent > indent) decline()
}

function readMapping(c: Cursor, indent: number, root: boolean): Record<string, unknown> {
  const mapping: Record<string, unknown> = {}
  for (let line = c.lines[c.at]; line !== undefined && line.indent >= indent;) {
    if (isMarker(line)) break
    if (line.indent > indent || isItem(line.text)) decline()
    const entry = splitKey(line.text) ?? decline()
    if (Object.hasOwn(mapping, entry.key)) decline()
    mapping[entry.key] = readValue(c, indent, entry.rest, root && entry.key === 'items')
    line = c.lines[c.at]
  }
  return mapping
}

/** The value after `key:` (`rest`), read from the line at the cursor and the lines it owns. */
function readValue(c: Cursor, indent: number, rest: string, rootItems: boolean): unknown {
  if (rest.startsWith('|')) return readLiteral(c, indent, rest)
  c.at++
  if (rest !== '' && !rest.startsWith('#')) {
    const value = readInline(rest)
    endOfValue(c, indent)
    if (rootItems && Array.isArray(value) && value.length > 0) decline()
    if (rootItems) c.itemLines = []
    return value
  }
  const next = c.lines[c.at]
  const itemLines = rootItems ? (c.itemLines = []) : undefined
  if (next !== undefined && next.indent === indent && isItem(next.text)) {
    return readSequence(c, indent, itemLines)
  }
  if (next === undefined || next.indent <= indent) return null
  if (isItem(next.text)) return readSequence(c, next.indent, itemLines)
  return readBlock(c, next.indent)
}

/** `| ` or `|-`: the lines indented past the key, as they are. */
function readLiteral(c: Cursor, indent: number, header: string): string {
  if (header !== '|' && header !== '|-') decline()
  const start = c.lines[c.at]!.number
  const body: string[] = []
  let contentIndent = -1
  let end = start
  for (; end < c.raw.length; end++) {
    const content = c.raw[end]!
    const blank = content.trim() === ''
    const lineIndent = content.length - content.trimStart().length
    if (blank) {
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
  while (c.at < c.lines.length && c.lines[c.at]!.number <= end) c.at++
  const next = c.lines[c.at]
  if (next !== undefined && next.indent > indent) decline()
  return body.join('\n') + (header === '|' ? '\n' : '')
}

/** `key: rest` on one line, or undefined when the line holds no plain or quoted key. */
function splitKey(text: string): { key: string; rest: string } | undefined {
  if (text.startsWith('"') || text.startsWith("'")) {
    const quoted = readQuoted(text, 0)
    if (text[quoted.end] !== ':' || ![' ', undefined].includes(text[quoted.end + 1]))
      return undefined
    return { key: checkedKey(quoted.value), rest: text.slice(quoted.end + 1).trim() }
  }
  const colon = /:(?: |$)/.exec(text)
  if (colon === null || AMBIGUOUS_START.test(text)) return undefined
  const keyText = text.slice(0, colon.index).trimEnd()
  if (keyText.includes(' #') || resolvePlain(keyText) !== keyText) decline()
  return { key: checkedKey(keyText), rest: text.slice(colon.index + 1).trim() }
}

/** Keys a reader treats specially (a merge, a prototype) or the empty key are js-yaml's to read. */
function checkedKey(key: string): string {
  if (key === '' || key === '<<' || key === '__proto__') decline()
  return key
}

/** A scalar or flow collection that makes up the rest of its line, comments aside. */
function readInline(text: string): unknown {
  if (text.startsWith('{') || text.startsWith('[')) {
    const flow = readFlow(text, 0)
    return afterValue(text, flow.end) ? flow.value : decline()
  }
  if (text.startsWith('"') || text.startsWith("'")) {
    const quoted = readQuoted(text, 0)
    return afterValue(text, quoted.end) ? quoted.value : decline()
  }
  const comment = text.indexOf(' #')
  const plain = (comment === -1 ? text : text.slice(0, comment)).trimEnd()
  if (plain.includes(': ') || plain.endsWith(':') || plain.includes('\t#')) decline()
  return resolvePlain(plain)
}

/** Nothing but a comment after a value's end. */
function afterValue(text: string, end: number): boolean {
  const rest = text.slice(end)
  return rest.trim() === '' || /^\s+#/.test(rest)
}

function resolvePlain(text: string): unknown {
  if (NULL.test(text)) return null
  if (TRUE.test(text)) return true
  if (FALSE.test(text)) return false
  if (INTEGER.test(text)) return Number(text)
  if (text === '' || AMBIGUOUS_START.test(text)) decline()
  return text
}

/**
 * A quoted scalar that ends on its line. Double quotes take JSON's escapes; YAML's others (\x, \e,
 * \N, …) and raw control characters are js-yaml's to read.
 */
function readQuoted(text: string, start: number): { value: string; end: number } {
  if (text[start] === "'") {
    let end = start + 1
    for (; end < text.length; end++) {
      if (text[end] !== "'") continue
      if (text[end + 1] !== "'") break
      end++
    }
    if (end >= text.length) decline()
    return { value: text.slice(start + 1, end).replaceAll("''", "'"), end: end + 1 }
  }
  let end = start + 1
  while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1
  if (end >= text.length) decline()
  const body = text.slice(start, end + 1)
  if (/\\[^"\\/bfnrtu]/.test(body)) decline()
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
  if (text[at] === '"' || text[at] === "'") return readQuoted(text, at)
  const match = /^[^,:[\]{}#]*/.exec(text.slice(at))!
  const plain = match[0].trimEnd()
  if (plain === '') decline()
  return { value: resolvePlain(plain), end: at + match[0].length }
}

function skipSpaces(text: string, at: number): number {
  while (text[at] === ' ') at++
  return at
}
