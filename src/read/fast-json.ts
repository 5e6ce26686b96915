// Reads a text that is JSON (kubectl get -o json, a JSON manifest) with JSON.parse, the fastest
// reader there is, and one pass over the text for what JSON.parse does not say: the line of the value
// and of every item of a top-level `items` list, and whether a key repeats in an object (the precise
// YAML reader refuses that, so JSON.parse, which keeps the last, must not quietly accept it).
import { lineIndex } from './parsed-document.ts'
import type { ParsedDocument } from './parsed-document.ts'

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
  const { items, keys } = scanJson(text, start)
  if (keysKept(value) !== keys) return undefined
  const lineAt = lineIndex(text)
  return [{ value, line: lineAt(start), itemLines: items.map(lineAt) }]
}

/**
 * How many keys the objects of a parsed value hold; NaN when one is `__proto__`. JSON.parse keeps one
 * key of each repeated one, so this is fewer than the text's keys exactly when a key repeats: one
 * count instead of a set of keys per object. An explicit stack: a deeply nested text must not
 * overflow the call stack.
 */
function keysKept(value: unknown): number {
  let keys = 0
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const next = stack.pop()
    if (typeof next !== 'object' || next === null) continue
    if (Array.isArray(next)) {
      for (const item of next) if (typeof item === 'object' && item !== null) stack.push(item)
      continue
    }
    for (const key in next) {
      if (key === '__proto__') return NaN
      keys++
      const item = (next as Record<string, unknown>)[key]
      if (typeof item === 'object' && item !== null) stack.push(item)
    }
  }
  return keys
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09
}

/**
 * The offsets of the values in the root object's `items` array, and how many keys the text holds: in
 * JSON every `:` outside a string ends a key. The text from `start` is valid JSON (JSON.parse read it),
 * so whitespace is all that sits between tokens.
 */
function scanJson(text: string, start: number): { items: number[]; keys: number } {
  const items: number[] = []
  let keys = 0
  let depth = 0
  const rootIsObject = text.charCodeAt(start) === 0x7b
  // at depth 1 of the root object, after `{` or `,`: the next string is a root key
  let rootKeyNext = false
  let rootKey = ''
  // the array at depth 2 is the root object's `items`
  let inItems = false
  // in that array, after `[` or `,`: the next value is an item
  let itemNext = false
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (isSpace(c)) continue
    if (itemNext) {
      if (c !== 0x5d /* ] */) items.push(i)
      itemNext = false
    }
    switch (c) {
      case 0x22 /* " */: {
        const end = stringEnd(text, i)
        if (rootKeyNext) {
          const raw = text.slice(i + 1, end)
          rootKey = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw
          rootKeyNext = false
        }
        i = end
        break
      }
      case 0x3a /* : */:
        keys++
        break
      case 0x7b /* { */:
        depth++
        rootKeyNext = depth === 1
        break
      case 0x5b /* [ */:
        depth++
        if (depth === 2 && rootIsObject && rootKey === 'items') inItems = itemNext = true
        break
      case 0x7d /* } */:
      case 0x5d /* ] */:
        if (depth === 2) inItems = false
        depth--
        break
      case 0x2c /* , */:
        rootKeyNext = depth === 1 && rootIsObject
        itemNext = depth === 2 && inItems
        break
    }
  }
  return { items, keys }
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
