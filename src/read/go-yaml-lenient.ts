// Where go-yaml v2 (kubectl's YAML) reads on and the `yaml` package stops with an error, the text
// is mended so that the `yaml` package reads what go-yaml v2 reads, and parsed again. Each mending
// follows one rule of go-yaml v2's scanner or parser, and changes only what that reader never looks
// at: white space a quoted scalar folds away, a comment's first character, text after the document's
// root. Loaded only with the precise reader (precise-yaml.ts), only for a text it finds an error in.
import { isCollection, isScalar, Scalar, visit, type Document, type YAMLError } from 'yaml'

// The text is parsed again after each mending, and a parse of the `yaml` package is slow (tens of
// milliseconds for a few thousand lines): a text may cost at most this many parses more. Comments
// are mended all at once, so a file full of them costs one.
const MAX_MENDINGS = 16

/** A text's first document, parsed again after each mending until it has no error it can mend. */
export function mendedDocument(
  text: string,
  parse: (text: string) => Document | undefined
): { doc: Document | undefined; text: string } {
  let doc = parse(text)
  for (let i = 0; i < MAX_MENDINGS && doc !== undefined; i++) {
    const mended = mend(text, doc)
    if (mended === undefined) break
    text = mended
    doc = parse(text)
  }
  return { doc, text }
}

function mend(text: string, doc: Document): string | undefined {
  const error = doc.errors[0]
  if (error === undefined) return unindentedBlockRoot(text, doc)
  const at = error.pos[0]
  if (isCommentError(error)) return spacedComments(text, doc.errors)
  if (error.message.startsWith('Missing closing')) return indentedQuote(text, openingQuote(doc, at))
  if (error.code === 'UNEXPECTED_TOKEN') return beforeRootsEnd(text, doc, at)
  if (error.code === 'MULTILINE_IMPLICIT_KEY') return indentedBlockHeader(text, at)
  return undefined
}

function isCommentError(error: YAMLError): boolean {
  return error.message.startsWith('Comments must be separated')
}

/**
 * Each "#" of the errors up to the first of another kind: the `yaml` package reads on after such a
 * "#" as after any comment, so they are all what they seem. go-yaml v2 starts a comment at a "#"
 * wherever a token may start: right after "]", "}", ",", a closing quote or a block scalar's
 * header, with no space before it. The "#" and the character after it become " #", so that the text
 * keeps its length and each line its columns; a comment's text is never read. An anchor or a tag
 * that runs into a "#" go-yaml v2 refuses: not mended.
 */
function spacedComments(text: string, errors: YAMLError[]): string | undefined {
  const pieces: string[] = []
  let done = 0
  for (const error of errors) {
    const at = error.pos[0]
    const line = text.slice(text.lastIndexOf('\n', at - 1) + 1, at)
    if (!isCommentError(error) || text[at] !== '#' || at < done) break
    if (!/[\]},"']$|[|>][-+1-9]{0,2}$/.test(line) || /[&!][^\s]*$/.test(line)) break
    const next = text[at + 1]
    const swapped = next === undefined || next === '\n' || next === '\r' ? ' ' : ' #'
    pieces.push(text.slice(done, at), swapped)
    done = at + swapped.length
  }
  return pieces.length === 0 ? undefined : pieces.join('') + text.slice(done)
}

// a document marker at a line's start: inside a quoted scalar go-yaml v2 refuses it
const MARKER = /^(?:---|\.\.\.)(?:[ \t\r]|$)/

/**
 * go-yaml v2 does not check how far a quoted scalar's later lines are indented; YAML 1.2 wants them
 * indented past the block they are in. Their leading white space is folded away by both, so each
 * later line is indented past the opening quote and the scalar reads the same.
 */
function indentedQuote(text: string, at: number | undefined): string | undefined {
  if (at === undefined) return undefined
  const end = closingQuote(text, at)
  if (end === undefined) return undefined
  const lines = text.slice(at, end).split('\n')
  if (lines.slice(1).some((line) => MARKER.test(line))) return undefined
  const column = at - (text.lastIndexOf('\n', at - 1) + 1)
  const pad = ' '.repeat(column + 1)
  const body = lines.map((line, i) => (i === 0 || line.trim() === '' ? line : pad + line))
  return text.slice(0, at) + body.join('\n') + text.slice(end)
}

/**
 * go-yaml v2 takes a block scalar's "|" or ">" on the line after its key in the key's column (its
 * content indented deeper); the `yaml` package wants the header indented past the key. One space
 * before the header: the content's indentation is counted from the key's, so it reads the same.
 * Only in the column of the key whose value it is: anywhere else go-yaml v2 refuses it too.
 */
function indentedBlockHeader(text: string, at: number): string | undefined {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1
  if (!/^[|>]/.test(text.slice(at, at + 1)) || text.slice(lineStart, at).trim() !== '') {
    return undefined
  }
  // the key line: the last one before the header that is not blank or a comment
  const before = text.slice(0, lineStart).split('\n').reverse()
  const keyLine = before.find((line) => !/^\s*(?:#.*)?\r?$/.test(line))
  const key = keyLine && /^((?:[ ]*-[ ]+)*[ ]*)[^\s#][^#]*:[ \t]*(?:#.*)?\r?$/.exec(keyLine)
  if (!key || key[1]!.length !== at - lineStart) return undefined
  return `${text.slice(0, at)} ${text.slice(at)}`
}

/** Where the quoted scalar that the `yaml` package found unclosed at `end` opens. */
function openingQuote(doc: Document, end: number): number | undefined {
  let at: number | undefined
  visit(doc, {
    Scalar(_, node) {
      const quoted = node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE
      if (quoted && node.range && node.range[0] < end && end <= node.range[2]) at = node.range[0]
    }
  })
  return at
}

/** The offset just past a quoted scalar's closing quote, as go-yaml v2 finds it. */
function closingQuote(text: string, at: number): number | undefined {
  const quote = text[at]
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i]
    if (quote === '"' && c === '\\') i++
    else if (c === quote && quote === "'" && text[i + 1] === "'") i++
    else if (c === quote) return i + 1
  }
  return undefined
}

/**
 * go-yaml v2 reads one node as a document's root and stops: what follows it it never parses. That
 * is text after a "..." marker, after a root scalar or flow collection, or on a line indented less
 * than a block root. The `yaml` package reads on and finds a token out of place there: the text is
 * cut where that token starts. A root block collection that the token's line continues (at its
 * indentation or deeper) is not done for go-yaml v2 either, which then refuses it too: not cut.
 */
function beforeRootsEnd(text: string, doc: Document, at: number): string | undefined {
  const root = doc.contents
  if (!root?.range || at < root.range[1]) return undefined
  const column = (offset: number): number => offset - (text.lastIndexOf('\n', offset - 1) + 1)
  const marked = /(?:^|\n)\.\.\.(?:[ \t\r]|$)/.test(text.slice(root.range[1], at))
  // after a "..." go-yaml v2 scans nothing more
  if (marked) return text.slice(0, at)
  const blockRoot = isCollection(root) && !root.flow
  if (blockRoot && column(at) >= column(root.range[0])) return undefined
  return cut(text, at)
}

/**
 * A block scalar as a document's root takes lines indented by one space at least for go-yaml v2
 * (the `yaml` package by none): a first line of content that starts the line ends it, empty, and
 * the document there.
 */
function unindentedBlockRoot(text: string, doc: Document): string | undefined {
  const root = doc.contents
  if (!isScalar(root) || !root.range) return undefined
  if (root.type !== Scalar.BLOCK_LITERAL && root.type !== Scalar.BLOCK_FOLDED) return undefined
  const content = /\n(?:[ \t]*\r?\n)*(?=[^ \r\n])/g
  content.lastIndex = root.range[0]
  const first = content.exec(text)
  if (!first || first.index + first[0].length >= root.range[1]) return undefined
  return cut(text, first.index + first[0].length)
}

/**
 * The text up to the token after the root, which go-yaml v2 scans: undefined where it refuses that
 * token, one no token starts with or a "- ", "? " or ": " after another token on its line.
 */
function cut(text: string, at: number): string | undefined {
  const after = text.slice(at, at + 2)
  const lineGoesOn = text.slice(text.lastIndexOf('\n', at - 1) + 1, at).trim() !== ''
  if (/^[@`\t]/.test(after) || (lineGoesOn && /^[-?:](?:\s|$)/.test(after))) return undefined
  return text.slice(0, at)
}
