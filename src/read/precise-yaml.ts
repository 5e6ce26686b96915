// The precise YAML reader, the `yaml` package: a position on every node and errors naming line and
// column. It reads only what the fast readers (fast-json.ts, fast-yaml.ts) refuse, so it is imported
// only then: a valid manifest or dump never loads it.
import { isMap, isSeq, LineCounter, parseAllDocuments, type Document, type Node } from 'yaml'
import { InputError } from '../runtime/errors.ts'
import type { ParsedDocument } from './parsed-document.ts'

// Aliases are legal YAML but a handful expand exponentially ("billion laughs"); manifests need few.
const MAX_ALIASES = 100

/** Every document of `text`; the first error of any is an InputError naming `file` and its line. */
export function parsePrecisely(text: string, file: string): ParsedDocument[] {
  const lineCounter = new LineCounter()
  const parsed = parseAllDocuments(text, { lineCounter, prettyErrors: true, uniqueKeys: true })
  const documents = Array.isArray(parsed) ? parsed : [parsed]
  return documents.map((doc, i) => {
    const where = `${file} document ${i + 1}`
    const firstError = doc.errors[0]
    if (firstError) {
      const position = firstError.linePos?.[0]
      // the parser's own first line repeats the position and ends where its snippet would start
      const problem = (firstError.message.split('\n')[0] ?? '').replace(
        / at line \d+, column \d+:?$/,
        ''
      )
      throw new InputError(
        `${where}${position ? ` (line ${position.line}, column ${position.col})` : ''}: invalid YAML: ${problem}`
      )
    }
    const itemsNode = isMap(doc.contents) ? doc.contents.get('items', true) : undefined
    return {
      value: toPlain(doc, where),
      line: lineOf(doc.contents, lineCounter),
      itemLines: isSeq(itemsNode) ? itemsNode.items.map((item) => lineOf(item, lineCounter)) : []
    }
  })
}

function toPlain(doc: Document, where: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIASES })
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e)
    throw new InputError(`${where}: ${reason}`)
  }
}

function lineOf(node: unknown, lineCounter: LineCounter): number {
  const range = (node as Node | null)?.range
  return range ? lineCounter.linePos(range[0]).line : 1
}
