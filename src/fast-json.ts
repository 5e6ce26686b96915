// Reads a text that is JSON (kubectl get -o json, a JSON manifest) with JSON.parse, the fastest
// reader there is, and one pass over the text for what JSON.parse does not say: the line of the value
// and of every item of a top-level `items` list, and whether a key repeats in an object (the precise
// YAML reader refuses that, so JSON.parse, which keeps the last, must not quietly accept it).
import type { ParsedDocument } from './fast-yaml.ts'

/** Where the JSON starts when the text is JSON: `{` or `[` after whitespace and # comment lines. */
export function jsonStart(text: string): number | undefined {
  let i = 0
  for (;;) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++
    if (text[i] !== '#') break
    const end = text.indexOf('\n', i)
    if (end === -1) return undefined
    i = end + 1
  }
  return text[i] === '{' || text[i] === '[' ? i : undefined
}

/**
 * The one document of a JSON text, or undefined when it is not JSON (a syntax error, a second value)
 * or holds what only the precise reader words well (a repeated key, a `__proto__` key): the caller
 * then reads it as YAML, precisely.
 */
export function parseJson(text: string): ParsedDocument[] | undefined {
  const start = jsonStart(text)
  if (start === undefined) return undefined
  let value: unknown
  try {
    value = JSON.parse(text.slice(start))
  } catch {
    return undefined
  }
  const items = scanJson(text, start)
  if (items === undefined) return undefined
  const lineAt = lineIndex(text)
  return [{ value, line: lineAt(start), itemLines: items.map(lineAt) }]
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09
}

interface Frame {
  /** the keys seen so far, for an object; undefined for an array */
  keys: Set<string> | undefined
  /** an object's next string is a key (after `{` or `,`) */
  expectKey: boolean
  /** this array is the value of the root object's `items`: record where each object item starts */
  items: boolean
}

/**
 * The offsets of the objects in the root object's `items` array; undefined when a key repeats in an
 * object or is `__proto__`. The text from `start` is valid JSON (JSON.parse read it).
 */
function scanJson(text: string, start: number): number[] | undefined {
  const items: number[] = []
  const stack: Frame[] = []
  let lastRootKey = ''
  // inside the items array, after `[` or `,`: the next value is an item
  let itemNext = false
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (itemNext && !isSpace(c)) {
      if (c !== 0x5d /* ] */) items.push(i)
      itemNext = false
    }
    if (c === 0x22 /* " */) {
      const end = stringEnd(text, i)
      const top = stack.at(-1)
      if (top?.keys !== undefined && top.expectKey) {
        const raw = text.slice(i + 1, end)
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw
        if (key === '__proto__' || top.keys.has(key)) return undefined
        top.keys.add(key)
        top.expectKey = false
        if (stack.length === 1) lastRootKey = key
      }
      i = end
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const parent = stack.at(-1)
      const isItems =
        c === 0x5b && stack.length === 1 && parent?.keys !== undefined && lastRootKey === 'items'
      stack.push({
        keys: c === 0x7b ? new Set() : undefined,
        expectKey: c === 0x7b,
        items: isItems
      })
      itemNext = isItems
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop()
    } else if (c === 0x2c /* , */) {
      const top = stack.at(-1)
      if (top?.keys !== undefined) top.expectKey = true
      itemNext = top?.items === true
    }
  }
  return items
}

/** The offset of the quote that closes the string opening at `open`. */
function stringEnd(text: string, open: number): number {
  let end = text.indexOf('"', open + 1)
  for (;;) {
    let backslashes = 0
    while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++
    if (backslashes % 2 === 0) return end
    end = text.indexOf('"', end + 1)
  }
}

/** Maps an offset of `text` to its 1-based line. */
export function lineIndex(text: string): (offset: number) => number {
  const starts = [0]
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return (offset) => {
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const mid = (low + high + 1) >> 1
      if ((starts[mid] ?? 0) <= offset) low = mid
      else high = mid - 1
    }
    return low + 1
  }
}
