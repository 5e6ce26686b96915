// The few YAML snippets diagnosis writes (ReferenceGrants, listener and parentRef stanzas) are built
// by hand so that `group: ""` and key order come out exactly as a reader would write them.

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
