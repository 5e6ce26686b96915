// A Route that already holds what another asks for on a parent, as a sentence.
import type { ConflictHolder } from '../rules/conflicts.ts'
import { routeIdOf } from '../model/route-id.ts'
import { listing } from './phrasing.ts'

/** "HTTPRoute shop/a also attaches to Gateway infra/edge with hostname x and match "path …"." */
export function holderSentence(holder: ConflictHolder, where: string): string {
  const { other, hosts, same } = holder
  const created = other.metadata.creationTimestamp
    ? ` (created ${other.metadata.creationTimestamp})`
    : ''
  return `${routeIdOf(other)}${created} also attaches to ${where} with hostname ${listing(hosts)}${same.length > 0 ? ` and match ${listing(same.map((m) => `"${m}"`))}` : ''}.`
}
