// How a fix reads: what it changes, what its proof showed, how to make it. Text, Markdown and the
// issue body render each fix from these, so they say the same thing; the caller escapes.
import type { Fix } from '../model/types.ts'
import { safeLogLine } from './escape.ts'
import { objectYaml } from './object-yaml.ts'

function targetName(fix: Fix): string {
  const { kind, namespace, name } = fix.target
  return `${kind} ${namespace === undefined ? '' : `${namespace}/`}${name}`
}

const PROOF_LABEL = { proven: 'proven', detaches: 'detaches Routes', unproven: 'not proven' }

/** "patch Gateway infra/edge (proven: …)". */
export function fixHeading(fix: Fix): string {
  const what = `${fix.action === 'command' ? 'change' : fix.action} ${targetName(fix)}`
  if (fix.proof === undefined) return `${what} (not checked)`
  return `${what} (${PROOF_LABEL[fix.proof.state]}: ${fix.proof.text})`
}

/** Where the change is made: the pull request's document, a command, or the object to apply. */
export function fixHowTo(fix: Fix): string {
  if (fix.file !== undefined) {
    return `In ${fix.file}${fix.line === undefined ? '' : `:${fix.line}`}, the document should read:`
  }
  const owned = `where a GitOps tool owns ${targetName(fix)}, make the change in its source instead, or the next sync undoes it`
  if (fix.command !== undefined) return `Run: ${fix.command} (${owned}).`
  if (fix.action === 'create') {
    const where = fix.target.namespace === undefined ? '' : ` namespace ${fix.target.namespace}`
    return `Create it (kubectl apply -f), or, where a GitOps tool manages${where}, add it to its source.`
  }
  return `Apply it whole (kubectl apply -f); ${owned}.`
}

/** Every string of a JSON value through `clean`. */
function cleanStrings(value: unknown, clean: (text: string) => string): unknown {
  if (typeof value === 'string') return clean(value)
  if (Array.isArray(value)) return value.map((v) => cleanStrings(v, clean))
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [clean(k), cleanStrings(v, clean)])
  )
}

/**
 * The object as it should read, as YAML; empty for a command alone. Cluster text in it loses its
 * control and escape sequences before it is quoted: quoted, they would survive as inert-looking text.
 */
export function fixYaml(fix: Fix): string {
  return fix.object === undefined || (fix.command !== undefined && fix.action === 'command')
    ? ''
    : objectYaml(cleanStrings(fix.object, safeLogLine))
}
