// The monitor's state kept inside the tracking issue, as a hidden HTML comment: each Route's verdict,
// grouped by kind and namespace, deflated and base64-encoded so that thousands of Routes fit in an
// issue body (65,536 characters) and no Route name can end the comment.
import { deflateRawSync, inflateRawSync } from 'node:zlib'
import { parseRouteStates, type RouteState } from '../model/transitions.ts'
import type { Verdict } from '../model/types.ts'

const PREFIX = '<!-- route-gate:state v1 '
const SUFFIX = ' -->'
const LETTER: Record<Verdict, string> = { ready: 'r', failed: 'f', pending: 'p' }
const VERDICT: Record<string, Verdict> = { r: 'ready', f: 'failed', p: 'pending' }

/** kind → namespace → name → verdict letter */
type Packed = Record<string, Record<string, Record<string, string>>>

export function encodeState(states: RouteState[]): string {
  const packed: Packed = {}
  for (const s of states) {
    const byNamespace = (packed[s.kind] ??= {})
    const byName = (byNamespace[s.namespace] ??= {})
    byName[s.name] = LETTER[s.verdict]
  }
  const data = deflateRawSync(Buffer.from(JSON.stringify(packed)), { level: 9 }).toString('base64')
  return `${PREFIX}${data}${SUFFIX}`
}

/**
 * The state hidden in an issue body: undefined when there is none (an issue someone rewrote), and an
 * Error when it is there but unreadable.
 */
export function decodeState(body: string): RouteState[] | undefined | Error {
  const start = body.indexOf(PREFIX)
  if (start < 0) return undefined
  const end = body.indexOf(SUFFIX, start + PREFIX.length)
  if (end < 0) return new Error('the state comment is cut off')
  try {
    const json = inflateRawSync(Buffer.from(body.slice(start + PREFIX.length, end), 'base64'))
    const packed = JSON.parse(json.toString('utf8')) as Packed
    const routes = Object.entries(packed).flatMap(([kind, byNamespace]) =>
      Object.entries(byNamespace).flatMap(([namespace, byName]) =>
        Object.entries(byName).map(([name, letter]) => ({
          kind,
          namespace,
          name,
          verdict: VERDICT[letter]
        }))
      )
    )
    return parseRouteStates({ routes }) ?? new Error('the state comment holds no valid Routes')
  } catch (error) {
    return new Error(`the state comment is unreadable (${(error as Error).message})`)
  }
}
