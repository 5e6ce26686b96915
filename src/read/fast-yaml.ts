// Reads YAML fast: js-yaml's event parser builds plain values without a node tree, and the events'
// offsets give the line of every document and of every item of a top-level `items` list. It reads
// every manifest and dump that is valid YAML (loaded only for what the line reader, block-yaml.ts,
// declines); the `yaml` package (precise-yaml.ts, loaded only then)
// reads what this refuses, to word the error with its line and column, at several times the cost.
import {
  COLLECTION_STYLE,
  constructFromEvents,
  EVENT_ID,
  parseEvents,
  SCALAR_STYLE,
  type Event
} from 'js-yaml'
import { lineIndex } from './parsed-document.ts'
import type { ParsedDocument } from './parsed-document.ts'
import { readsAlike, SLASH_ESCAPE } from './block-yaml.ts'

interface Shape {
  start: number
  items: number[]
}

/** An open mapping or sequence: a mapping's children alternate key, value. */
interface Open {
  mapping: boolean
  /** in [ ] or { }, where go-yaml v2 ends a plain scalar at a "?" */
  flow: boolean
  children: number
  /** the sequence that is the value of the root mapping's `items` */
  items: boolean
}

// A plain key the core schema reads as null: the precise reader names it "" where js-yaml says "null"
const NULL_KEY = /^(?:~|null|Null|NULL|)$/

/**
 * undefined when the text is not valid YAML, or holds what js-yaml reads otherwise than the precise
 * reader or refuses: aliases (dumps never do, and the precise parser limits their expansion), tags it
 * does not know, a directive (%YAML 1.1 reads yes as true), a null key. The caller then reads the text
 * precisely.
 */
export function parseYaml(text: string): ParsedDocument[] | undefined {
  if (SPLITS_OTHERWISE.test(text) || READ_APART.test(text)) return undefined
  let events: Event[]
  let values: unknown[]
  try {
    events = parseEvents(text, {})
    values = constructFromEvents(events, { source: text, maxAliases: 0 })
  } catch {
    return undefined
  }
  const shapes = documentShapes(events, text)
  if (shapes === undefined || shapes.length !== values.length) return undefined
  const lineAt = lineIndex(text)
  return values.map((value, i) => ({
    value,
    line: lineAt(shapes[i]?.start ?? 0),
    itemLines: (shapes[i]?.items ?? []).map(lineAt)
  }))
}

/**
 * kubectl splits documents at lines that start with "---" and reads one document between two: a
 * document after "..." without "---", text after "---" on its line, "---#" glued, and a byte order
 * mark (go-yaml drops up to two at a document's start, js-yaml one) are the precise reader's.
 */
const SPLITS_OTHERWISE = /^(?:\.\.\.|---[ \t]*[^\s#]|---#)|\ufeff/m

/**
 * A ":" before a flow indicator (a key's end for YAML 1.2, part of a scalar for go-yaml v2), a tab
 * in a line's indentation or after "- ", an explicit "?" key, or a block scalar's header starting
 * a line (a root block scalar, whose content go-yaml v2 wants indented): the precise reader's.
 */
const READ_APART = /:[,[\]{}]|^ *\t|^\s*- +\t|^\s*\?(?:\s|$)|^[|>]/m

/** go-yaml v2's anchor and alias names: it refuses any other character in one. */
const ANCHOR_NAME = /^[0-9A-Za-z_-]+$/

/**
 * Not a plain scalar YAML 1.1 reads otherwise (or, in [ ] or { }, holding a "?"), a double-quoted
 * "\/" that go-yaml v2 refuses, or an anchor name it refuses.
 */
function readsAsKubernetes(
  event: Event & { type: typeof EVENT_ID.SCALAR },
  text: string,
  inFlow: boolean
): boolean {
  const raw = text.slice(event.valueStart, event.valueEnd)
  if (!anchorReadsAlike(event, text)) return false
  if (event.style === SCALAR_STYLE.PLAIN) return readsAlike(raw) && !(inFlow && raw.includes('?'))
  return event.style !== SCALAR_STYLE.DOUBLE_QUOTED || !SLASH_ESCAPE.test(raw)
}

function anchorReadsAlike(
  event: { anchorStart: number; anchorEnd: number },
  text: string
): boolean {
  return (
    event.anchorStart === -1 || ANCHOR_NAME.test(text.slice(event.anchorStart, event.anchorEnd))
  )
}

/**
 * Where each document starts and where each item of its top-level `items` sequence starts;
 * undefined for a directive or a null key.
 */
function documentShapes(events: Event[], text: string): Shape[] | undefined {
  const shapes: Shape[] = []
  let current: Shape = { start: 0, items: [] }
  const open: Open[] = []
  // the last key of the root mapping names the value that follows it
  let lastRootKey = ''
  for (const event of events) {
    const top = open.at(-1)
    switch (event.type) {
      case EVENT_ID.DOCUMENT:
        if (event.directives.length > 0) return undefined
        current = { start: 0, items: [] }
        shapes.push(current)
        break
      case EVENT_ID.MAPPING:
      case EVENT_ID.SEQUENCE: {
        const mapping = event.type === EVENT_ID.MAPPING
        if (top === undefined) current.start = event.start
        else if (top.items) current.items.push(event.start)
        if (!anchorReadsAlike(event, text)) return undefined
        open.push({
          mapping,
          flow: event.style === COLLECTION_STYLE.FLOW,
          children: 0,
          items: !mapping && open.length === 1 && top?.mapping === true && lastRootKey === 'items'
        })
        if (top) top.children++
        break
      }
      case EVENT_ID.SCALAR:
        if (!readsAsKubernetes(event, text, top?.flow === true)) return undefined
        if (top === undefined) current.start = event.valueStart
        else if (top.items) current.items.push(event.valueStart)
        else if (top.mapping && top.children % 2 === 0) {
          const key = text.slice(event.valueStart, event.valueEnd)
          if (event.style === SCALAR_STYLE.PLAIN && event.tagStart === -1 && NULL_KEY.test(key)) {
            return undefined
          }
          if (open.length === 1) lastRootKey = key
        }
        if (top) top.children++
        break
      case EVENT_ID.ALIAS:
        if (top) top.children++
        break
      case EVENT_ID.POP:
        // a document's end pops nothing that is open
        if (top) open.pop()
        break
    }
  }
  return shapes
}
