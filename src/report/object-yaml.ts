// A fix's object as YAML, written by hand so that `group: ""` and key order come out exactly as a
// reader would write them, and every scalar reads back as the same type under YAML 1.1 and 1.2.

/**
 * Plain scalars that YAML 1.2 or 1.1 (kubectl's parser) reads as something other than a string:
 * booleans, null, and numbers in decimal, exponent, hexadecimal, octal or binary notation.
 */
const NOT_A_STRING =
  /^(true|false|null|yes|no|on|off|y|n|~|[0-9.]+(e[-+]?[0-9]+)?|0x[0-9a-f]+|0o[0-7]+|0b[01]+)$/i

/** A scalar safe to write unquoted, or a JSON string (valid YAML) when it is not. */
export function yamlScalar(value: string | number): string {
  if (typeof value === 'number') return String(value)
  return /^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(value) && !NOT_A_STRING.test(value)
    ? value
    : JSON.stringify(value)
}

function scalar(value: unknown): string {
  if (typeof value === 'string') return yamlScalar(value)
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return 'null'
}

function isBlock(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0
}

function lines(value: unknown, indent: string): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      if (!isBlock(item)) return [`${indent}- ${inline(item)}`]
      const [first = '', ...rest] = lines(item, `${indent}  `)
      return [`${indent}- ${first.slice(indent.length + 2)}`, ...rest]
    })
  }
  return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) =>
    isBlock(item)
      ? [`${indent}${yamlScalar(key)}:`, ...lines(item, `${indent}  `)]
      : [`${indent}${yamlScalar(key)}: ${inline(item)}`]
  )
}

function inline(value: unknown): string {
  if (Array.isArray(value)) return '[]'
  if (typeof value === 'object' && value !== null) return '{}'
  return scalar(value)
}

/** A JSON value as block YAML: mappings and sequences indented, empty ones as {} and []. */
export function objectYaml(value: unknown): string {
  return isBlock(value) ? `${lines(value, '').join('\n')}\n` : `${inline(value)}\n`
}
