// The few YAML snippets diagnosis writes (ReferenceGrants, listener and parentRef stanzas) are built
// by hand so that `group: ""` and key order come out exactly as a reader would write them.

/** A scalar safe to write unquoted, or a JSON string (valid YAML) when it is not. */
export function yamlScalar(value: string | number): string {
  if (typeof value === 'number') return String(value)
  return /^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(value) &&
    !/^(true|false|null|yes|no|on|off|~|[0-9.]+)$/i.test(value)
    ? value
    : JSON.stringify(value)
}
