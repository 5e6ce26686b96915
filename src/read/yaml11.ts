// A plain YAML scalar as Kubernetes reads it: kubectl, client-go and the API server's YAML all go
// through sigs.k8s.io/yaml, whose go-yaml v2 follows YAML 1.1 (resolve.go). `010` is 8, `0X1F` 31,
// `1_000` 1000, and `yes`, `on` and `y` are true. The fast readers follow YAML 1.2's core schema, so
// they decline every scalar on which the two could differ (`readsAlike`), and the precise reader
// resolves it here (readsAlike lives with the line reader, block-yaml.ts, which every fast reader
// already loads: one module less to load on the offline path).

/** A float JSON cannot hold: kubectl refuses the document ("json: unsupported value: +Inf"). */
export class NotJson {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

const TRUE = ['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'true', 'True', 'TRUE']
const FALSE = ['n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF', 'false', 'False', 'FALSE']
const NULL = ['', '~', 'null', 'Null', 'NULL']
const INFINITE = ['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF']
const NAN = ['.nan', '.NaN', '.NAN']

const WORDS = new Map<string, unknown>([
  ...TRUE.map((w): [string, unknown] => [w, true]),
  ...FALSE.map((w): [string, unknown] => [w, false]),
  ...NULL.map((w): [string, unknown] => [w, null]),
  ...[...INFINITE, ...NAN].map((w): [string, unknown] => [w, new NotJson(w)])
])

// go-yaml v2's yamlStyleFloat, and what strconv.ParseFloat takes after a leading "."
const YAML_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/
const DOT_FLOAT = /^\.[0-9]+(?:[eE][-+]?[0-9]+)?$/

const DIGITS: Record<number, RegExp> = {
  2: /^[01]+$/,
  8: /^[0-7]+$/,
  10: /^[0-9]+$/,
  16: /^[0-9a-fA-F]+$/
}

const BASE_LETTER: Record<number, string> = { 2: 'b', 8: 'o', 16: 'x' }

/** strconv.ParseInt(text, 0, 64), then ParseUint: undefined where both fail. */
function goInteger(text: string): number | undefined {
  const negative = text.startsWith('-')
  const signed = negative || text.startsWith('+')
  let body = signed ? text.slice(1) : text
  let base = 10
  const prefix = body.slice(0, 2).toLowerCase()
  if (prefix === '0x' || prefix === '0o' || prefix === '0b') {
    base = prefix === '0x' ? 16 : prefix === '0o' ? 8 : 2
    body = body.slice(2)
  } else if (body.length > 1 && body.startsWith('0')) {
    base = 8
    body = body.slice(1)
  }
  if (!DIGITS[base]!.test(body)) return undefined
  const value = BigInt(base === 10 ? body : `0${BASE_LETTER[base]!}${body}`)
  const limit = negative ? 2n ** 63n : signed ? 2n ** 63n - 1n : 2n ** 64n - 1n
  if (value > limit) return undefined
  return Number(negative ? -value : value)
}

/** go-yaml v2's reading of a plain, untagged scalar. */
export function resolveKubernetes(text: string): unknown {
  if (WORDS.has(text)) return WORDS.get(text)
  const first = text[0] ?? ''
  if (first === '.') return DOT_FLOAT.test(text) ? Number(text) : text
  if (!/^[-+0-9]$/.test(first)) return text
  const plain = text.replaceAll('_', '')
  const integer = goInteger(plain)
  if (integer !== undefined) return integer
  if (YAML_FLOAT.test(plain)) {
    const value = Number(plain)
    // strconv.ParseFloat fails past the float64 range: the scalar stays a string
    if (Number.isFinite(value)) return value
  }
  return text
}
