// Reads a large YAML or JSON text (a dump of thousands of Routes) fast: js-yaml's event parser builds
// plain values without a node tree, and the events' offsets give the line of every document and of
// every item of a top-level `items` list. The `yaml` package stays the reader of everything else: it
// keeps a position on every node and words errors precisely, at several times the cost.
import { constructFromEvents, EVENT_ID, parseEvents, type Event } from 'js-yaml'

export interface ParsedDocument {
  value: unknown
  /** 1-based line where the document's content starts */
  line: number
  /** the line of each item of a top-level `items` sequence, in order */
  itemLines: number[]
}

interface Shape {
  start: number
  items: number[]
}

/**
 * undefined when the text is not valid YAML, or uses aliases (dumps never do, and the precise parser
 * limits their expansion): the caller then reads it precisely.
 */
export function parseLargeYaml(text: string): ParsedDocument[] | undefined {
  let events: Event[]
  let values: unknown[]
  try {
    events = parseEvents(text, {})
    values = constructFromEvents(events, { source: text, maxAliases: 0 })
  } catch {
    return undefined
  }
  const shapes = documentShapes(events, text)
  if (shapes.length !== values.length) return undefined
  const lineAt = lineIndex(text)
  return values.map((value, i) => ({
    value,
    line: lineAt(shapes[i]?.start ?? 0),
    itemLines: (shapes[i]?.items ?? []).map(lineAt)
  }))
}

/** Where each document starts and where the mappings of its top-level `items` sequence start. */
function documentShapes(events: Event[], text: string): Shape[] {
  const shapes: Shape[] = []
  let current: Shape = { start: 0, items: [] }
  let depth = 0
  // children of the root mapping alternate key, value; the last key names the value that follows
  let rootChildren = 0
  let lastKey = ''
  let inItems = false
  for (const event of events) {
    switch (event.type) {
      case EVENT_ID.DOCUMENT:
        current = { start: 0, items: [] }
        shapes.push(current)
        depth = 1
        rootChildren = 0
        break
      case EVENT_ID.MAPPING:
      case EVENT_ID.SEQUENCE:
        if (depth === 1) current.start = event.start
        else if (depth === 2) {
          inItems =
            event.type === EVENT_ID.SEQUENCE && rootChildren % 2 === 1 && lastKey === 'items'
          rootChildren++
        } else if (depth === 3 && inItems && event.type === EVENT_ID.MAPPING) {
          current.items.push(event.start)
        }
        depth++
        break
      case EVENT_ID.SCALAR:
        if (depth === 1) current.start = event.valueStart
        else if (depth === 2) {
          if (rootChildren % 2 === 0) lastKey = text.slice(event.valueStart, event.valueEnd)
          rootChildren++
        }
        break
      case EVENT_ID.ALIAS:
        if (depth === 2) rootChildren++
        break
      case EVENT_ID.POP:
        depth--
        if (depth === 2) inItems = false
        break
    }
  }
  return shapes
}

function lineIndex(text: string): (offset: number) => number {
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
