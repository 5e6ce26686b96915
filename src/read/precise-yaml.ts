// The precise YAML reader: what the fast readers (fast-json.ts, dump-yaml.ts, block-yaml.ts,
// fast-yaml.ts) decline, read as kubectl reads it, with errors naming line and column. It is
// imported only then: a plain manifest or dump never loads it.
//
// kubectl splits a file into documents at every line that starts with "---" (apimachinery's
// YAMLReader: only a comment may follow on that line), and sigs.k8s.io/yaml reads the first YAML
// document of each piece with go-yaml v2: YAML 1.1 scalars (yaml11.ts), `<<` merge keys, the last
// of duplicate keys, keys made strings. The `yaml` package parses, with every scalar left a string
// (its failsafe schema), and this module gives the nodes their Kubernetes values.
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseAllDocuments,
  Scalar,
  visit,
  type Document,
  type Node
} from 'yaml'
import { stripControl, truncate } from '../model/plain-text.ts'
import { InputError } from '../runtime/errors.ts'
import type { ParsedDocument } from './parsed-document.ts'
import { NotJson, resolveKubernetes } from './yaml11.ts'
import { mendedDocument } from './go-yaml-lenient.ts'

// Aliases are legal YAML but a handful expand exponentially ("billion laughs"); manifests need few.
const MAX_ALIASES = 100

// go-yaml v2's escapes in double quotes (YAML 1.1: no "\/"), and an escaped line break
const ESCAPE =
  /\\(?:[0abt\tnvfre "'\\N_LP\n]|\r\n?|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})/y

interface Piece {
  text: string
  /** 0-based line of the file where the piece starts */
  line: number
  /** opened by a separator line, which YAMLReader keeps in a document it has read nothing of */
  opened?: boolean
}

/** The file split as apimachinery's YAMLReader splits it. */
function pieces(text: string, file: string): Piece[] {
  const lines = text.split('\n')
  const out: Piece[] = []
  let start = 0
  let opened = false
  for (const [i, line] of lines.entries()) {
    if (!line.startsWith('---')) continue
    // a separator that opens a document (nothing read since the last) stays in it for go-yaml,
    // which reads "---#" glued as text, not as a marker and a comment
    if (i === start && line.startsWith('---#')) {
      throw new InputError(
        `${file} (line ${i + 1}): invalid YAML: "---#" opening a document is text for kubectl, not a separator and a comment; put a space after "---"`
      )
    }
    const rest = line.slice(3).trim()
    if (rest !== '' && !rest.startsWith('#')) {
      throw new InputError(
        `${file} (line ${i + 1}): invalid YAML: only a comment may follow "---" on its line, as kubectl reads it; found "${rest.slice(0, 40)}"`
      )
    }
    out.push({ text: lines.slice(start, i).join('\n'), line: start, opened })
    opened = i === start
    start = i + 1
  }
  out.push({ text: lines.slice(start).join('\n'), line: start, opened })
  return out.filter((p) => p.text.trim() !== '').map((p) => withoutByteOrderMarks(p, file))
}

/**
 * kubectl reads a document without up to two byte order marks at its start; the `yaml` package
 * drops one. A third stays part of the text for kubectl, which this reader could not keep: refused.
 * A document that opens with "..." (comments aside, and no kept separator before it) is go-yaml's
 * "did not find expected node content".
 */
function withoutByteOrderMarks(piece: Piece, file: string): Piece {
  const text = piece.text.replace(/^\ufeff{1,2}/, '')
  if (text.startsWith('\ufeff')) {
    throw new InputError(
      `${file} (line ${piece.line + 1}): invalid YAML: three byte order marks open a document; kubectl would read the third as text`
    )
  }
  const opening = /^(?:\s*(?:#.*)?\n)*(.*)/.exec(text)?.[1] ?? ''
  if (piece.opened !== true && /^\.\.\.(?:\s|$)/.test(opening)) {
    throw new InputError(
      `${file} (line ${piece.line + 1}): invalid YAML: a document that opens with "...", which kubectl refuses`
    )
  }
  return { ...piece, text }
}

/** Every document of `text`; the first error of any is an InputError naming `file` and its line. */
export function parsePrecisely(
  text: string,
  file: string,
  warn: (message: string) => void = () => {}
): ParsedDocument[] {
  return pieces(text, file).flatMap((piece, i) => {
    let lineCounter = new LineCounter()
    // go-yaml reads the first document of a piece; what follows a "..." is never read
    const parse = (source: string): Document | undefined => {
      lineCounter = new LineCounter()
      return parseAllDocuments(source, {
        lineCounter,
        prettyErrors: true,
        uniqueKeys: false,
        schema: 'failsafe'
      })[0]
    }
    const { doc, text: read } = mendedDocument(piece.text, parse)
    if (doc === undefined) return []
    const where = `${file} document ${i + 1}`
    const at = (offset: number): { line: number; col: number } => {
      const position = lineCounter.linePos(offset)
      return { line: position.line + piece.line, col: position.col }
    }
    const firstError = doc.errors[0]
    if (firstError) {
      const position = firstError.pos[0]
      const { line, col } = at(position)
      // the parser's own first line repeats the position and ends where its snippet would start
      const problem = (firstError.message.split('\n')[0] ?? '').replace(
        / at line \d+, column \d+:?$/,
        ''
      )
      throw new InputError(`${where} (line ${line}, column ${col}): invalid YAML: ${problem}`)
    }
    refuseWhatGoYamlRefuses(doc, read, where, at)
    const reader = new KubernetesValues(doc, read, where, at, warn)
    const itemsNode = isMap(doc.contents) ? doc.contents.get('items', true) : undefined
    const lineOf = (node: unknown): number => {
      const range = (node as Node | null)?.range
      return range ? at(range[0]).line : piece.line + 1
    }
    return [
      {
        value: reader.value(doc.contents),
        line: lineOf(doc.contents),
        itemLines: isSeq(itemsNode) ? itemsNode.items.map(lineOf) : []
      }
    ]
  })
}

/**
 * go-yaml v2 takes a tab for white space only inside a line, a flow collection or a scalar: one that
 * starts a line (or follows "- ") in block context it refuses ("found character that cannot start
 * any token"), where the `yaml` package reads on. Refused here, naming the line, as are the explicit
 * "?" keys the two read apart (explicitKeys).
 */
function refuseWhatGoYamlRefuses(
  doc: Document,
  text: string,
  where: string,
  at: (offset: number) => { line: number; col: number }
): void {
  // what refusedLine refuses needs a tab or a "?" at a line's start: most texts are done here
  if (!/\t|^[\s-]*\?/m.test(text)) return
  const exempt: [number, number][] = []
  const blocks: [number, number][] = []
  visit(doc, {
    Scalar(_, node) {
      if (!node.range) return
      if (node.type === Scalar.BLOCK_LITERAL || node.type === Scalar.BLOCK_FOLDED)
        blocks.push([node.range[0], node.range[1]])
      else if (node.type !== Scalar.PLAIN) exempt.push([node.range[0], node.range[1]])
    },
    Map(_, node) {
      if (node.flow && node.range) exempt.push([node.range[0], node.range[1]])
    },
    Seq(_, node) {
      if (node.flow && node.range) exempt.push([node.range[0], node.range[1]])
    }
  })
  const [inExempt, inBlock, explicit] = [sweep(exempt), sweep(blocks), explicitKeys()]
  let offset = 0
  for (const line of text.split('\n')) {
    const refused =
      !inExempt(offset) &&
      (refusedLine(line, inBlock(offset)) || (!inBlock(offset) && explicit(line)))
    if (refused) {
      throw new InputError(
        `${where} (line ${at(offset).line}): invalid YAML: ${refused}, which Kubernetes's YAML reader refuses`
      )
    }
    offset += line.length + 1
  }
}

/**
 * Whether an offset lies strictly inside one of the ranges, asked for offsets that only grow: the
 * ranges sorted once and walked with a cursor, so a file costs its lines plus its ranges.
 */
function sweep(ranges: [number, number][]): (offset: number) => boolean {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0])
  let at = 0
  let reach = -1
  return (offset) => {
    // every range that starts before the offset has been seen; the furthest end among them decides
    while (at < sorted.length && sorted[at]![0] < offset) reach = Math.max(reach, sorted[at++]![1])
    return offset < reach
  }
}

/**
 * Lines the `yaml` package reads on an explicit "? key" and go-yaml v2 refuses ("did not find
 * expected key"): its ":" on a line of its own out of the column of the "?", and the key going on
 * in a deeper line after a comment (which ends go-yaml v2's scalar; the `yaml` package then drops
 * that line without an error).
 */
function explicitKeys(): (line: string) => string | undefined {
  let column = -1
  let commented = false
  return (line) => {
    const key = /^(?:\s*-\s+)*\s*\?(?:\s|$)/.exec(line)
    if (key) {
      column = key[0].lastIndexOf('?')
      commented = /\s#/.test(line.slice(column))
      return undefined
    }
    const indent = line.length - line.trimStart().length
    const first = line.trimStart()[0]
    if (column === -1 || first === undefined) return undefined
    if (first === '#') commented = true
    else if (/^ *:(?:\s|$)/.test(line) && indent !== column)
      return 'the ":" of an explicit "?" key is not in the column of its "?"'
    else if (indent > column && commented) return 'an explicit "?" key goes on after a comment'
    else if (indent <= column) column = -1
    return undefined
  }
}

function refusedLine(line: string, inBlockScalar: boolean): string | undefined {
  if (line.startsWith('\t')) return 'a tab starts the line'
  if (inBlockScalar) return undefined
  if (/^ +\t+\S/.test(line) || /^\s*- +\t/.test(line)) return 'a tab indents the line'
  return undefined
}

/** The nodes of one document given the values go-yaml v2 and sigs.k8s.io/yaml give them. */
class KubernetesValues {
  private aliases = 0
  /** how many [ ] or { } the node being read is in */
  private flowDepth = 0
  private readonly open = new Set<Node>()
  private readonly doc: Document
  private readonly text: string
  private readonly where: string
  private readonly at: (offset: number) => { line: number; col: number }
  private readonly warn: (message: string) => void

  constructor(
    doc: Document,
    text: string,
    where: string,
    at: (offset: number) => { line: number; col: number },
    warn: (message: string) => void
  ) {
    this.doc = doc
    this.text = text
    this.where = where
    this.at = at
    this.warn = warn
  }

  private fail(node: unknown, problem: string): never {
    const range = (node as Node | null)?.range
    const position = range ? this.at(range[0]) : undefined
    throw new InputError(
      `${this.where}${position ? ` (line ${position.line}, column ${position.col})` : ''}: ${problem}`
    )
  }

  value(node: unknown): unknown {
    if (node === null || node === undefined) return null
    this.checkAnchor(node as Node)
    if (isAlias(node)) return this.alias(node)
    if (isScalar(node)) return this.scalar(node)
    if (isSeq(node)) return this.within(node, () => node.items.map((item) => this.item(item)))
    if (isMap(node)) return this.within(node, () => this.mapping(node))
    return this.fail(node, 'invalid YAML: a node kubectl cannot read')
  }

  /** go-yaml v2 reads `[x:]` as the string "x:" where the `yaml` package reads a pair. */
  private item(node: unknown): unknown {
    // a pair in [ ] without { } is a mapping of one pair that starts at its key
    if (isMap(node) && node.flow && node.items.length === 1 && this.text[node.range![0]] !== '{') {
      const key = node.items[0]!.key
      const glued = this.gluedKey(key)
      if (glued !== undefined) return this.resolved(key as Scalar, glued)
    }
    return this.value(node)
  }

  /** go-yaml v2 takes only letters, digits, "_" and "-" in an anchor's or an alias's name. */
  private checkAnchor(node: Node): void {
    const name = isAlias(node) ? node.source : node.anchor
    if (name !== undefined && !/^[0-9A-Za-z_-]+$/.test(name))
      this.fail(
        node,
        `invalid YAML: the anchor name "${truncate(stripControl(name), 40)}" holds a character Kubernetes's YAML reader refuses`
      )
  }

  private within<T>(node: Node, read: () => T): T {
    const flow = (node as { flow?: boolean }).flow === true
    this.open.add(node)
    if (flow) this.flowDepth++
    try {
      return read()
    } finally {
      this.open.delete(node)
      if (flow) this.flowDepth--
    }
  }

  private alias(node: Node & { source: string; resolve: (doc: Document) => unknown }): unknown {
    const target = node.resolve(this.doc)
    if (target === undefined)
      return this.fail(node, `invalid YAML: unknown anchor "${node.source}"`)
    if (this.open.has(target as Node))
      return this.fail(node, `invalid YAML: anchor "${node.source}" contains itself`)
    if (++this.aliases > MAX_ALIASES)
      return this.fail(node, `invalid YAML: more than ${MAX_ALIASES} aliases (excessive aliasing)`)
    return this.value(target)
  }

  private scalar(node: Scalar): unknown {
    if (node.type === Scalar.QUOTE_DOUBLE) this.checkEscapes(node)
    if (this.flowDepth > 0 && node.type === Scalar.PLAIN && String(node.source).includes('?'))
      this.fail(
        node,
        'invalid YAML: a "?" ends a plain scalar inside [ ] or { } for Kubernetes (YAML 1.1), which then refuses the text; quote the value'
      )
    const text = String(node.type === Scalar.PLAIN ? (node.source ?? node.value) : node.value)
    const tag = node.tag?.replace(/^tag:yaml\.org,2002:/, '!!')
    if (tag === '!!str') return text
    // an explicit type types even a quoted scalar, as go-yaml v2 does
    if (tag === '!!int' || tag === '!!float' || tag === '!!bool' || tag === '!!null') {
      const value = this.resolved(node, text)
      const want = {
        '!!int': 'number',
        '!!float': 'number',
        '!!bool': 'boolean',
        '!!null': 'object'
      }
      if (typeof value !== want[tag] || (tag === '!!null') !== (value === null))
        this.fail(node, `invalid YAML: cannot read "${truncate(stripControl(text), 40)}" as ${tag}`)
      return value
    }
    // quoted and block scalars are strings; a plain one is typed as go-yaml v2 types it
    return node.type === Scalar.PLAIN ? this.resolved(node, text) : text
  }

  private resolved(node: Scalar, raw: string): unknown {
    const value = resolveKubernetes(raw)
    if (value instanceof NotJson)
      return this.fail(
        node,
        `${value.text} is not a number JSON can hold, so Kubernetes refuses it`
      )
    return value
  }

  /** go-yaml v2 refuses an escape YAML 1.1 does not have ("\/" among them). */
  private checkEscapes(node: Scalar): void {
    const range = node.range
    if (!range) return
    const raw = this.text.slice(range[0], range[1])
    for (let i = raw.indexOf('\\'); i !== -1; i = raw.indexOf('\\', i + 2)) {
      ESCAPE.lastIndex = i
      if (!ESCAPE.test(raw)) {
        this.fail(
          node,
          `invalid YAML: unknown escape "${raw.slice(i, i + 2)}" in a double-quoted string`
        )
      }
    }
  }

  private mapping(node: Node & { items: { key: unknown; value: unknown }[] }): unknown {
    const out: Record<string, unknown> = {}
    const given = new Set<string>()
    for (const pair of node.items) {
      if (
        isScalar(pair.key) &&
        pair.key.type === Scalar.PLAIN &&
        pair.key.source === '<<' &&
        !pair.key.tag
      ) {
        this.merge(pair.value, out)
        continue
      }
      const key = this.gluedKey(pair.key) ?? this.keyOf(pair.key)
      if (given.has(key)) {
        const line = this.at((pair.key as Node).range?.[0] ?? 0).line
        this.warn(
          `${this.where} (line ${line}): key "${key}" is given twice; Kubernetes keeps the last`
        )
      }
      given.add(key)
      set(out, key, this.value(pair.value))
    }
    return out
  }

  /**
   * YAML 1.2 ends a plain key inside [ ] or { } at a ":" that "," "]" or "}" follows; go-yaml v2 ends
   * a plain scalar only at a ":" that white space follows, so `[2001:db8::]` holds the string
   * "2001:db8::" and `{x:}` the key "x:" (with no value). That string, or undefined for a key both
   * read alike. A ":" that "[" or "{" follows go-yaml v2 refuses, and so does this.
   */
  private gluedKey(key: unknown): string | undefined {
    if (!isScalar(key) || key.type !== Scalar.PLAIN || !key.range) return undefined
    const after = this.text.slice(key.range[1]).match(/^[ \t]*:(.?)/)
    if (!after || after[1] === undefined || after[1] === '' || /\s/.test(after[1])) return undefined
    if (!',]}'.includes(after[1])) {
      this.fail(
        key,
        'invalid YAML: a ":" that "[" or "{" follows, inside [ ] or { }, ends a key in YAML 1.2 but not for Kubernetes (YAML 1.1), which then refuses the text; quote the value'
      )
    }
    return this.text.slice(key.range[0], key.range[1]) + after[0].slice(0, -1)
  }

  /** A `<<` merge: a mapping, an alias of one, or a sequence of them (the earlier ones win). */
  private merge(node: unknown, out: Record<string, unknown>): void {
    const nodes = isSeq(node) ? [...node.items].reverse() : [node]
    for (const item of nodes) {
      const value = this.value(item)
      const target = isAlias(item) ? item.resolve(this.doc) : item
      if (!isMap(target) || typeof value !== 'object' || value === null)
        this.fail(item, 'invalid YAML: a "<<" merge takes a mapping or a list of mappings')
      for (const [key, v] of Object.entries(value as Record<string, unknown>)) set(out, key, v)
    }
  }

  /** sigs.k8s.io/yaml makes every key a string; a null or a collection as a key it refuses. */
  private keyOf(node: unknown): string {
    const key = this.value(node)
    if (typeof key === 'string') return key
    if (typeof key === 'number' || typeof key === 'boolean') return String(key)
    return this.fail(
      node,
      `invalid YAML: a key of type ${key === null ? 'null' : typeof key} is not a string Kubernetes can read`
    )
  }
}

/** An own property, even "__proto__". */
function set(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
}
