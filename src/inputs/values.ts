// The parsers of single values: durations, counts, lists, Route kinds and references, label
// selectors, addresses, CIDRs and status ranges, each with a message that names the input and shows
// a valid value.
import { InputError } from '../runtime/errors.ts'
import { parseRouteKind } from '../model/kinds.ts'
import { isDnsLabel, isDnsSubdomain } from '../model/names.ts'
import { ROUTE_KINDS, type RouteKind } from '../model/types.ts'
import type { StatusRange } from '../probe/rules/answer.ts'
import { parseCidr, refusedTarget, type Cidr } from '../probe/rules/target-guard.ts'
import type { RouteRef } from './settings.ts'

const CONDITION_TYPE =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z]([A-Za-z0-9_.-]*[A-Za-z0-9])?$/
const DURATION_PART = /(\d+)(ms|h|m|s)/g
const DURATION = /^(\d+(ms|h|m|s))+$/
const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 }

export function parseDuration(text: string, input = 'timeout'): number {
  const compact = text.trim()
  if (!DURATION.test(compact)) {
    throw new InputError(`Invalid ${input} "${text}": use a duration like 90s, 5m or 1h`)
  }
  let ms = 0
  for (const [, amount, unit] of compact.matchAll(DURATION_PART)) {
    ms += Number(amount) * (UNIT_MS[unit ?? 's'] ?? 0)
  }
  if (ms <= 0) throw new InputError(`Invalid ${input} "${text}": it must be longer than zero`)
  if (ms > 24 * 3_600_000) throw new InputError(`Invalid ${input} "${text}": at most 24h`)
  return ms
}

/** A GitHub login: an App's bot is `slug[bot]`. */
export function parseLogin(text: string): string {
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/.test(text)) {
    throw new InputError(
      `Invalid github-app-login "${text}": use the account the App writes as, e.g. my-deployer[bot]`
    )
  }
  return text
}

/** A whole number from 1 to `max`. */
export function parseCount(text: string, input: string, max: number): number {
  const n = /^\d+$/.test(text) ? Number(text) : NaN
  if (!(n >= 1 && n <= max)) {
    throw new InputError(`Invalid ${input} "${text}": use a whole number from 1 to ${max}`)
  }
  return n
}

export function parseBoolean(text: string, input: string): boolean {
  if (/^(true|yes|on)$/i.test(text)) return true
  if (/^(false|no|off)$/i.test(text)) return false
  throw new InputError(`Invalid ${input} "${text}": use true or false`)
}

/** Splits a list input on newlines and commas; blank entries are dropped. */
export function splitList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s !== '')
}

export function parseKinds(text: string): RouteKind[] {
  const kinds: RouteKind[] = []
  for (const item of splitList(text)) {
    const kind = parseRouteKind(item)
    if (!kind) {
      throw new InputError(`Invalid kinds entry "${item}": use one of ${ROUTE_KINDS.join(', ')}`)
    }
    if (!kinds.includes(kind)) kinds.push(kind)
  }
  if (kinds.length === 0) {
    throw new InputError(`Invalid kinds "${text}": name at least one of ${ROUTE_KINDS.join(', ')}`)
  }
  return kinds
}

export function parseRouteRef(text: string): RouteRef {
  const parts = text.split('/')
  const usage = 'use kind/name or kind/namespace/name, e.g. httproute/checkout'
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => p === '')) {
    throw new InputError(`Invalid routes entry "${text}": ${usage}`)
  }
  const kind = parseRouteKind(parts[0] ?? '')
  if (!kind) {
    throw new InputError(
      `Invalid routes entry "${text}": unknown kind "${parts[0]}", use one of ${ROUTE_KINDS.join(', ')}`
    )
  }
  const name = parts[parts.length - 1] ?? ''
  const namespace = parts.length === 3 ? parts[1] : undefined
  if (namespace !== undefined && !isDnsLabel(namespace)) {
    throw new InputError(
      `Invalid routes entry "${text}": namespace "${namespace}" is not a valid namespace name`
    )
  }
  if (!isDnsSubdomain(name)) {
    throw new InputError(`Invalid routes entry "${text}": "${name}" is not a valid Route name`)
  }
  return namespace === undefined ? { kind, name } : { kind, namespace, name }
}

const SELECTOR_TERM =
  /^\s*(!?\s*[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?|[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?\s*(==?|!=)\s*[A-Za-z0-9]?([-A-Za-z0-9_.]*[A-Za-z0-9])?|[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?\s+(in|notin)\s+\(\s*[-A-Za-z0-9_.]*(\s*,\s*[-A-Za-z0-9_.]*)*\s*\))\s*$/

/** A label selector's terms: commas inside "in (a,b)" separate values, not terms. */
export function selectorTerms(selector: string): string[] {
  return selector.split(/,(?![^(]*\))/)
}

/** Checks a label selector's syntax here, so a typo is an input error (exit 2), not a cluster one. */
export function parseSelector(text: string): string {
  const terms = selectorTerms(text)
  for (const term of terms) {
    if (!SELECTOR_TERM.test(term)) {
      throw new InputError(
        `Invalid selector "${text}": "${term.trim()}" is not a label selector term; use e.g. app=web, tier!=db, env in (prod,staging) or !legacy`
      )
    }
  }
  return text.trim()
}

export function parseEnum<T extends string>(text: string, input: string, values: readonly T[]): T {
  const found = values.find((v) => v === text.toLowerCase())
  if (!found) throw new InputError(`Invalid ${input} "${text}": use one of ${values.join(', ')}`)
  return found
}

const CLUSTER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/
const IPV6 = /^[0-9a-fA-F:.]+$/

/** An IP address or a DNS name: no scheme, no port (each listener's port is used). */
export function parseGatewayAddress(text: string): string {
  const host = text.trim()
  const bare = host.replace(/^\[(.*)\]$/, '$1')
  const valid =
    IPV4.test(bare) || (bare.includes(':') && IPV6.test(bare)) || isDnsSubdomain(bare.toLowerCase())
  if (!valid) {
    throw new InputError(
      `Invalid gateway-address "${text}": use an IP address or a hostname, without scheme or port (each listener's port is used)`
    )
  }
  const refused = refusedTarget(bare, 'input', { allowedCidrs: [] })
  if (refused !== undefined) {
    throw new InputError(`Invalid gateway-address "${text}": ${refused}, which is never probed`)
  }
  return bare.toLowerCase()
}

/** "10.0.0.0/8, fd00::/8": the ranges a Gateway's status address must fall in to be probed. */
export function parseCidrs(text: string): Cidr[] {
  const cidrs = splitList(text).map((part) => {
    const cidr = parseCidr(part)
    if (cidr === undefined) {
      throw new InputError(
        `Invalid traffic-allowed-cidrs entry "${part}": use CIDRs like 10.0.0.0/8 or fd00::/8, separated by commas or new lines`
      )
    }
    return cidr
  })
  if (cidrs.length === 0) {
    throw new InputError(
      'Invalid traffic-allowed-cidrs: it names no CIDR; leave it unset to probe any address'
    )
  }
  return cidrs
}

/** "200-399", "200,204,404": status codes and inclusive ranges of them. */
export function parseStatusRanges(text: string): StatusRange[] {
  const usage = 'use status codes and ranges like 200-399 or 200,204,404'
  return splitList(text).map((part) => {
    const m = /^(\d{3})(?:\s*-\s*(\d{3}))?$/.exec(part)
    const from = Number(m?.[1])
    const to = Number(m?.[2] ?? m?.[1])
    if (!m || from < 100 || to > 599 || from > to) {
      throw new InputError(`Invalid expect-status entry "${part}": ${usage}`)
    }
    return { from, to }
  })
}

// an annotation key: an optional DNS subdomain prefix and a slash, then a name of up to 63 characters
const ANNOTATION_KEY =
  /^(?:[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/

export function parseAnnotation(text: string): { key: string; value: string } {
  const equals = text.indexOf('=')
  const key = equals < 0 ? text : text.slice(0, equals)
  const prefix = key.includes('/') ? key.slice(0, key.indexOf('/')) : ''
  if (equals < 0 || !ANNOTATION_KEY.test(key) || prefix.length > 253) {
    throw new InputError(
      `Invalid until-annotation "${text}": use KEY=VALUE with an annotation key, e.g. example.com/revision=0f3c2a1`
    )
  }
  return { key, value: text.slice(equals + 1) }
}

export function parseNamespace(namespace: string | undefined): string | undefined {
  if (namespace !== undefined && !isDnsLabel(namespace)) {
    throw new InputError(`Invalid namespace "${namespace}": not a valid namespace name`)
  }
  return namespace
}

export function parseConditions(text: string): string[] {
  const conditions = splitList(text)
  for (const c of conditions) {
    if (!CONDITION_TYPE.test(c)) {
      throw new InputError(
        `Invalid conditions entry "${c}": use condition types like Accepted, ResolvedRefs`
      )
    }
  }
  if (conditions.length === 0) {
    throw new InputError('Invalid conditions "": name at least one condition, e.g. Accepted')
  }
  return conditions
}

export function parseClusterName(clusterName: string): string {
  if (!CLUSTER_NAME.test(clusterName)) {
    throw new InputError(
      `Invalid cluster-name "${clusterName}": use 1 to 63 letters, digits, '.', '_' or '-', starting with a letter or digit`
    )
  }
  return clusterName
}
