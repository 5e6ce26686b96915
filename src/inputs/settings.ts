// Every input of the Action and every flag of the CLI, parsed and validated once into one typed
// Settings object. The Action reads INPUT_* through @actions/core, the CLI reads its flags; both hand
// this module a plain `read(name)` and get the same settings and the same error messages.
import { InputError } from '../runtime/errors.ts'
import { parseRouteKind } from '../model/kinds.ts'
import { DEFAULT_CONDITIONS } from '../model/evaluate.ts'
import { ROUTE_KINDS, type RouteKind } from '../model/types.ts'
import type { StatusRange } from '../probe/rules/answer.ts'
import { parseCidr, refusedTarget, type Cidr } from '../probe/rules/target-guard.ts'

export type OutputFormat = 'text' | 'json' | 'yaml' | 'markdown'
export type Command = 'gate' | 'monitor' | 'dump' | 'predict'
export type FailOn = 'degraded' | 'any' | 'never'

export interface RouteRef {
  kind: RouteKind
  /** undefined: the namespace setting (or the context's default) applies */
  namespace?: string
  name: string
}

export interface Settings {
  command: Command
  manifests: string[]
  routes: RouteRef[]
  selector?: string
  namespace?: string
  allNamespaces: boolean
  kinds: RouteKind[]
  timeoutMs: number
  /** gate: how often the wait logs its one-line state */
  heartbeatMs: number
  conditions: string[]
  failFast: boolean
  strict: boolean
  /** the Action's kubeconfig input: content */
  kubeconfig?: string
  /** the CLI's --kubeconfig: a path, as in kubectl */
  kubeconfigFile?: string
  /** gate: server-side apply the manifests first (CLI apply, the Action's gate and apply); else locate their Routes */
  applyManifests: boolean
  context?: string
  dryRun: boolean
  summary: boolean
  annotations: boolean
  /** snapshot mode: evaluate this dump, no cluster */
  fromFile?: string
  /** dump: where to write it (`-` for stdout) */
  outputFile?: string
  format: OutputFormat
  /** where to write the whole report as JSON (the Action defaults it into RUNNER_TEMP) */
  reportFile?: string
  /** monitor: what fails the run */
  failOn: FailOn
  /** monitor: keep a list+watch open this long and report each change as it happens */
  watchDurationMs?: number
  /** monitor, CLI: a former report or state file to compare with */
  previous?: string
  /** monitor, CLI: where to write this run's state for the next --previous */
  stateOut?: string
  /** Action: token for the tracking issue and the pull request comment */
  githubToken?: string
  /** monitor: names the tracking issue, one per cluster */
  clusterName: string
  /** Action: the account a GitHub App's installation token writes as (GET /user cannot tell) */
  githubAppLogin?: string
  /** gate, Action: post the verdict as a pull request comment */
  comment: boolean
  /** gate: once the status is ready, send requests through each parent Gateway until it serves */
  verifyTraffic: boolean
  /** verify-traffic: where to send them instead of the Gateway's status.addresses */
  gatewayAddress?: string
  /** verify-traffic: the answers that count as served */
  expectStatus?: StatusRange[]
  /** verify-traffic: extra CA certificates, PEM content or a path to a PEM file (read by the gate) */
  trafficCa?: string
  /** verify-traffic: the explicit opt-in to skip TLS certificate verification */
  trafficSkipTlsVerify: boolean
  /** verify-traffic: a Gateway status address outside these is not probed (empty: no narrowing) */
  trafficAllowedCidrs: Cidr[]
  /** verify-traffic: keep the body excerpt and every header of an answer, in the report file only */
  trafficShowBody: boolean
  /** verify-traffic: rounds in a row a parent's requests must all be routed in */
  trafficSuccesses: number
}

export interface InputSpec {
  name: string
  description: string
  default?: string
  /** shown in the CLI help only */
  cliOnly?: boolean
  /** an input of the Action only: no CLI flag */
  actionOnly?: boolean
  /** the CLI help's text where the flag differs from the Action's input (a path, not content) */
  flag?: string
  /** the CLI help's name for the flag's value, as kubectl writes them (FILE, DURATION) */
  arg?: string
}

/** The single list of inputs: action.yml, the CLI help and the README table are checked against it. */
export const INPUTS: InputSpec[] = [
  {
    name: 'mode',
    description:
      '`gate`: apply the `manifests` (as `route-gate apply`), or locate `routes`, `selector` or `namespace` (as `route-gate check`), and wait until every Route is ready. `check`: as gate, but never write to the cluster: locate the Routes the `manifests` name. `apply`: the same as gate. `monitor`: judge every Route in scope, compare with the previous run, and keep a tracking issue. `predict`: before anything is applied, predict from the `manifests` and the `cluster-snapshot` (or the live cluster, read-only) what the controllers will write; fails on a definite failure.',
    default: 'gate',
    actionOnly: true
  },
  {
    name: 'manifests',
    description:
      'Files, directories or globs of manifests, one per line or comma-separated (`-` reads stdin). The Action and `apply` server-side apply them and gate their Routes; `check` gates the Routes they name and applies nothing.',
    flag: 'Files, directories or globs of manifests, repeatable or comma-separated (`-` reads stdin). `apply` server-side applies them (a dry-run of every document first), then gates their Routes; `check` gates the Routes they name and writes nothing.',
    arg: 'FILES'
  },
  {
    name: 'routes',
    description:
      'Routes to locate and gate, one per line or comma-separated: `kind/name` (in `namespace`) or `kind/namespace/name`, kind case-insensitive, e.g. `httproute/checkout`, `GRPCRoute/payments/api`.',
    flag: 'Routes to locate and gate, repeatable or comma-separated: `kind/name` (in --namespace) or `kind/namespace/name`, kind case-insensitive, e.g. `httproute/checkout`, `GRPCRoute/payments/api`.',
    arg: 'KIND/NAME'
  },
  {
    name: 'selector',
    description: 'Label selector: gate every Route in scope that matches it.',
    arg: 'SELECTOR'
  },
  {
    name: 'namespace',
    description: "Namespace of Routes given without one; default: the kubeconfig context's.",
    arg: 'NAMESPACE'
  },
  {
    name: 'all-namespaces',
    description: 'Look for Routes (selector, kinds) in every namespace.',
    default: 'false'
  },
  {
    name: 'kinds',
    description: 'Route kinds in scope, comma-separated.',
    default: ROUTE_KINDS.join(','),
    arg: 'KINDS'
  },
  {
    name: 'timeout',
    description:
      'How long to wait for every parent to be ready, e.g. `90s`, `5m`, `1h30m`. At the deadline pending parents fail.',
    default: '5m',
    arg: 'DURATION'
  },
  {
    name: 'heartbeat',
    description:
      'Gate: while waiting, log one line this often (and on every change): how many Routes are ready, the parents that are not and why, and the time left.',
    default: '30s',
    arg: 'DURATION'
  },
  {
    name: 'conditions',
    description: 'Conditions that must be True on every parent, comma-separated.',
    default: DEFAULT_CONDITIONS.join(','),
    arg: 'TYPES'
  },
  {
    name: 'fail-fast',
    description:
      'Stop at the first definite failure instead of waiting for it to heal until the deadline.',
    default: 'false'
  },
  {
    name: 'strict',
    description:
      'Fail a parent whose Route is PartiallyInvalid (some rules dropped); predict: fail on an unknown too.',
    default: 'false'
  },
  {
    name: 'kubeconfig',
    description:
      'Action: kubeconfig content (a secret); CLI: a path to a kubeconfig file, as in kubectl. Credentials in it are masked. Default: KUBECONFIG, ~/.kube/config, in-cluster.',
    flag: 'Path to the kubeconfig file to use, as in kubectl (that file alone); default: KUBECONFIG, ~/.kube/config, in-cluster.',
    arg: 'PATH'
  },
  {
    name: 'context',
    description: 'Kubeconfig context to use; default: its current context.',
    arg: 'NAME'
  },
  {
    name: 'dry-run',
    description:
      'Server-side dry-run of the manifests only: validate them against the API server, apply and gate nothing.',
    default: 'false'
  },
  { name: 'summary', description: 'Write the job summary.', default: 'true', actionOnly: true },
  {
    name: 'annotations',
    description: 'Write error annotations at the failing Routes (manifest file and line).',
    default: 'true',
    actionOnly: true
  },
  {
    name: 'from-file',
    description:
      'Snapshot mode: evaluate a saved dump (`route-gate dump`, or `kubectl get … -o yaml`) without a cluster and without waiting; `-` reads stdin.',
    cliOnly: true,
    arg: 'FILE'
  },
  {
    name: 'cluster-snapshot',
    description:
      "predict: a dump written by `route-gate dump` (or `kubectl get … -A -o yaml`) to predict against, e.g. a scheduled job's artifact. Without it, predict reads the live cluster of `kubeconfig`, read-only.",
    actionOnly: true
  },
  {
    name: 'output-file',
    description: 'dump: where to write the dump (`-o FILE`; `-` for stdout).',
    cliOnly: true,
    arg: 'FILE'
  },
  {
    name: 'format',
    description:
      'Output format of the report on stdout: `text`, `json`, `yaml` or `markdown` (`--output` is the same flag; JSON and YAML follow docs/report.schema.json).',
    default: 'text',
    cliOnly: true,
    arg: 'FORMAT'
  },
  {
    name: 'report-file',
    description: 'Write the whole JSON report to this path (the Action writes one to RUNNER_TEMP).',
    arg: 'FILE'
  },
  {
    name: 'fail-on',
    description:
      'Monitor: `degraded` fails the run when a Route went from ready to failed or pending since the previous run, `any` while any Route is not ready, `never` never.',
    default: 'degraded',
    arg: 'WHEN'
  },
  {
    name: 'watch-duration',
    description:
      'Monitor: keep watching this long (e.g. `10m`, a post-deploy soak), logging each degradation as it happens; with fail-on degraded (the default) the run fails if anything degraded.',
    arg: 'DURATION'
  },
  {
    name: 'previous',
    description: 'Monitor: a former report (or state file) to compare with.',
    cliOnly: true,
    arg: 'FILE'
  },
  {
    name: 'state-out',
    description: "Monitor: write this run's state here, for the next run's --previous.",
    cliOnly: true,
    arg: 'FILE'
  },
  {
    name: 'github-token',
    description:
      'Token for the monitor tracking issue and the pull request comment (issues: write, pull-requests: write).',
    default: '${{ github.token }}',
    actionOnly: true
  },
  {
    name: 'cluster-name',
    description:
      'Monitor: the name of the cluster, in the tracking issue title; one issue per cluster name.',
    default: 'default',
    actionOnly: true
  },
  {
    name: 'github-app-login',
    description:
      "The account github-token writes as when it is a GitHub App's installation token, e.g. `my-deployer[bot]`: GitHub does not tell an installation token its own account, and route-gate adopts only the tracking issue and comment that the token's account (or a repository writer) wrote.",
    actionOnly: true
  },
  {
    name: 'comment',
    description:
      'Gate: post the verdict and the fixes as a pull request comment, updated in place on re-runs.',
    default: 'false',
    actionOnly: true
  },
  {
    name: 'verify-traffic',
    description:
      "Gate: once a Route's status is ready, send real requests through each parent Gateway's listeners (HTTPRoute) and wait, within `timeout`, until the answers show the Route in effect.",
    default: 'false'
  },
  {
    name: 'gateway-address',
    description:
      "Verify-traffic: the IP or hostname to send requests to instead of the Gateway's `status.addresses` (for runners that reach the Gateway another way). Listener ports still apply.",
    arg: 'ADDRESS'
  },
  {
    name: 'expect-status',
    description:
      'Verify-traffic: the status codes the backends answer, e.g. `200-399` or `200,204,404`; other answers are not served.',
    arg: 'CODES'
  },
  {
    name: 'traffic-ca',
    description:
      'Verify-traffic: extra CA certificates (PEM content, or a path to a PEM file) trusted for HTTPS listeners beside the system ones.',
    arg: 'PEM'
  },
  {
    name: 'traffic-skip-tls-verify',
    description:
      'Verify-traffic: do not verify the certificates of HTTPS listeners. The report says it was used.',
    default: 'false'
  },
  {
    name: 'traffic-successes',
    description:
      'Verify-traffic: how many rounds in a row every request of a parent must be answered by the Route before it counts as serving (Gateway API conformance uses 3).',
    default: '3',
    arg: 'N'
  },
  {
    name: 'traffic-allowed-cidrs',
    description:
      "Verify-traffic: CIDRs (comma or newline separated, e.g. `10.0.0.0/8,fd00::/8`) a Gateway's `status.addresses` must fall in to be probed. Link-local, metadata-service, unspecified, broadcast and multicast addresses are never probed from status, whatever this says.",
    arg: 'CIDRS'
  },
  {
    name: 'traffic-show-body',
    description:
      'Verify-traffic: keep the first 200 characters of each answer body and every response header (cookies and credentials masked) in the report file (0600). The job summary, annotations, PR comment and `report` output never show them.',
    default: 'false'
  }
]

export type InputReader = (name: string) => string | undefined

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
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

function kubeconfigOf(
  given: string | undefined,
  form: 'content' | 'path'
): Pick<Settings, 'kubeconfig' | 'kubeconfigFile'> {
  if (!given?.trim()) return {}
  return form === 'path' ? { kubeconfigFile: given.trim() } : { kubeconfig: given }
}

/** A GitHub login: an App's bot is `slug[bot]`. */
function parseLogin(text: string): string {
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
  if (namespace !== undefined && !DNS_LABEL.test(namespace)) {
    throw new InputError(
      `Invalid routes entry "${text}": namespace "${namespace}" is not a valid namespace name`
    )
  }
  if (!DNS_SUBDOMAIN.test(name) || name.length > 253) {
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

function parseEnum<T extends string>(text: string, input: string, values: readonly T[]): T {
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
    IPV4.test(bare) ||
    (bare.includes(':') && IPV6.test(bare)) ||
    (DNS_SUBDOMAIN.test(bare.toLowerCase()) && bare.length <= 253)
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

export interface EntryPoint {
  /** gate: apply the manifests before gating them (default: as the Action's mode says, all but check) */
  apply?: boolean
  /** how the kubeconfig input is read: content (the Action, default) or a path (the CLI) */
  kubeconfig?: 'content' | 'path'
}

const MODES = ['gate', 'check', 'apply', 'monitor', 'predict'] as const

/** `command` is given by the CLI's subcommand; the Action leaves it to the `mode` input. */
export function parseSettings(
  read: InputReader,
  command?: Command,
  entry: EntryPoint = {}
): Settings {
  const input = inputsOf(read)
  // validated before the groups below, in this order, which decides the error that a run with several
  // bad inputs reports
  const namespace = parseNamespace(input.optional('namespace'))
  const conditions = parseConditions(input.value('conditions'))
  const clusterName = parseClusterName(input.value('cluster-name'))
  // the Action's mode names the CLI's verbs too: check never writes, apply is the gate as it always was
  const mode = command === undefined ? parseEnum(input.value('mode'), 'mode', MODES) : undefined
  // spread in the order of Settings: each group parses, and may throw, in turn
  const settings: Settings = {
    command: command ?? (mode === 'monitor' || mode === 'predict' ? mode : 'gate'),
    ...scopeOf(input, namespace),
    ...readinessOf(input, conditions),
    ...clusterAccessOf(input, entry, mode),
    ...outputOf(input, mode),
    ...monitorOf(input),
    ...githubOf(input, clusterName),
    ...trafficOf(input)
  }
  checkCombinations(settings)
  return settings
}

/** How each setting reads its input: a blank input takes the default INPUTS declares for it. */
interface Inputs {
  /** the input untouched: no trimming, no default from INPUTS (a kubeconfig's content is kept whole) */
  read: InputReader
  value(name: string): string
  optional(name: string): string | undefined
  flag(name: string): boolean
  optionalWith<T>(name: string, parse: (text: string) => T): T | undefined
}

function inputsOf(read: InputReader): Inputs {
  const value = (name: string): string => {
    const raw = read(name)?.trim() ?? ''
    return raw !== '' ? raw : (INPUTS.find((i) => i.name === name)?.default ?? '')
  }
  const optional = (name: string): string | undefined => value(name) || undefined
  return {
    read,
    value,
    optional,
    flag: (name) => parseBoolean(value(name), name),
    optionalWith: (name, parse) => {
      const text = optional(name)
      return text === undefined ? undefined : parse(text)
    }
  }
}

function parseNamespace(namespace: string | undefined): string | undefined {
  if (namespace !== undefined && !DNS_LABEL.test(namespace)) {
    throw new InputError(`Invalid namespace "${namespace}": not a valid namespace name`)
  }
  return namespace
}

function parseConditions(text: string): string[] {
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

function parseClusterName(clusterName: string): string {
  if (!CLUSTER_NAME.test(clusterName)) {
    throw new InputError(
      `Invalid cluster-name "${clusterName}": use 1 to 63 letters, digits, '.', '_' or '-', starting with a letter or digit`
    )
  }
  return clusterName
}

/** Which Routes the run judges. */
function scopeOf(
  input: Inputs,
  namespace: string | undefined
): Pick<Settings, 'manifests' | 'routes' | 'selector' | 'namespace' | 'allNamespaces' | 'kinds'> {
  const selectorText = input.optional('selector')
  return {
    manifests: splitList(input.value('manifests')),
    routes: splitList(input.value('routes')).map(parseRouteRef),
    selector: selectorText === undefined ? undefined : parseSelector(selectorText),
    namespace,
    allNamespaces: input.flag('all-namespaces'),
    kinds: parseKinds(input.value('kinds'))
  }
}

/** When a Route counts as ready, and how long the gate waits for it. */
function readinessOf(
  input: Inputs,
  conditions: string[]
): Pick<Settings, 'timeoutMs' | 'heartbeatMs' | 'conditions' | 'failFast' | 'strict'> {
  return {
    timeoutMs: parseDuration(input.value('timeout')),
    heartbeatMs: parseDuration(input.value('heartbeat'), 'heartbeat'),
    conditions,
    failFast: input.flag('fail-fast'),
    strict: input.flag('strict')
  }
}

/** Which cluster is read, and whether the run writes to it. */
function clusterAccessOf(
  input: Inputs,
  entry: EntryPoint,
  mode: string | undefined
): Pick<Settings, 'kubeconfig' | 'kubeconfigFile' | 'applyManifests' | 'context' | 'dryRun'> {
  return {
    ...kubeconfigOf(input.read('kubeconfig'), entry.kubeconfig ?? 'content'),
    applyManifests: entry.apply ?? mode !== 'check',
    context: input.optional('context'),
    dryRun: input.flag('dry-run')
  }
}

/** Where the run reads a saved dump from, and where and how it reports. */
function outputOf(
  input: Inputs,
  mode: string | undefined
): Pick<Settings, 'summary' | 'annotations' | 'fromFile' | 'outputFile' | 'format' | 'reportFile'> {
  return {
    summary: input.flag('summary'),
    annotations: input.flag('annotations'),
    fromFile: snapshotOf(input.optional('from-file'), input.optional('cluster-snapshot'), mode),
    outputFile: input.optional('output-file'),
    format: parseEnum(input.value('format'), 'format', [
      'text',
      'json',
      'yaml',
      'markdown'
    ] as const),
    reportFile: input.optional('report-file')
  }
}

/** What fails a monitor run, how long it watches, and the state it compares with. */
function monitorOf(
  input: Inputs
): Pick<Settings, 'failOn' | 'watchDurationMs' | 'previous' | 'stateOut'> {
  const watchDuration = input.optional('watch-duration')
  return {
    failOn: parseEnum(input.value('fail-on'), 'fail-on', ['degraded', 'any', 'never'] as const),
    watchDurationMs:
      watchDuration === undefined ? undefined : parseDuration(watchDuration, 'watch-duration'),
    previous: input.optional('previous'),
    stateOut: input.optional('state-out')
  }
}

/** How the run writes to GitHub: the tracking issue and the pull request comment. */
function githubOf(
  input: Inputs,
  clusterName: string
): Pick<Settings, 'githubToken' | 'clusterName' | 'githubAppLogin' | 'comment'> {
  return {
    // read as given: the default `${{ github.token }}` means something only to the runner
    githubToken: input.read('github-token')?.trim() || undefined,
    clusterName,
    githubAppLogin: input.optionalWith('github-app-login', parseLogin),
    comment: input.flag('comment')
  }
}

/** Whether the gate sends requests through the Gateways once the status is ready, and how. */
function trafficOf(
  input: Inputs
): Pick<
  Settings,
  | 'verifyTraffic'
  | 'gatewayAddress'
  | 'expectStatus'
  | 'trafficCa'
  | 'trafficSkipTlsVerify'
  | 'trafficAllowedCidrs'
  | 'trafficShowBody'
  | 'trafficSuccesses'
> {
  return {
    verifyTraffic: input.flag('verify-traffic'),
    gatewayAddress: input.optionalWith('gateway-address', parseGatewayAddress),
    expectStatus: input.optionalWith('expect-status', parseStatusRanges),
    trafficCa: input.read('traffic-ca')?.trim() || undefined,
    trafficSkipTlsVerify: input.flag('traffic-skip-tls-verify'),
    trafficAllowedCidrs: input.optionalWith('traffic-allowed-cidrs', parseCidrs) ?? [],
    trafficShowBody: input.flag('traffic-show-body'),
    trafficSuccesses: parseCount(input.value('traffic-successes'), 'traffic-successes', 20)
  }
}

function checkCombinations(s: Settings): void {
  if (s.namespace !== undefined && s.allNamespaces) {
    throw new InputError('Invalid inputs: set either namespace or all-namespaces, not both')
  }
  if (s.command === 'dump') return checkDump(s)
  if (s.command === 'predict') return checkPredict(s)
  if (s.command === 'monitor') checkMonitor(s)
  else checkGate(s)
  checkTraffic(s)
  if (s.selector !== undefined && s.routes.length > 0) {
    // one scope per run: a selector would silently leave out named Routes that lack its labels
    throw new InputError(
      'Invalid inputs: set either routes (Routes by name) or selector (Routes by label), not both'
    )
  }
  for (const r of s.routes) {
    if (!s.kinds.includes(r.kind)) {
      throw new InputError(
        `Invalid routes entry "${r.kind}/${r.name}": its kind is not in kinds (${s.kinds.join(', ')})`
      )
    }
  }
  if (s.fromFile !== undefined) {
    if (s.manifests.length > 0) {
      throw new InputError(
        'Invalid inputs: from-file evaluates a saved dump; it cannot be combined with manifests'
      )
    }
    return
  }
  if (s.dryRun && !s.applyManifests) {
    throw new InputError(
      'Invalid inputs: dry-run validates manifests for apply; check never writes to the cluster (use mode: apply)'
    )
  }
  if (s.dryRun && s.manifests.length === 0) {
    throw new InputError('Invalid inputs: dry-run needs manifests to validate')
  }
  const scoped = s.manifests.length + s.routes.length > 0 || s.selector !== undefined
  if (s.command === 'gate' && !scoped && !s.allNamespaces && s.namespace === undefined) {
    throw new InputError(
      'Nothing to gate: set manifests (to apply), routes (to locate), selector, namespace or all-namespaces'
    )
  }
}

/** The Action names predict's dump `cluster-snapshot`; the CLI's --from-file is the same setting. */
function snapshotOf(
  fromFile: string | undefined,
  clusterSnapshot: string | undefined,
  mode: string | undefined
): string | undefined {
  if (clusterSnapshot === undefined) return fromFile
  if (mode !== 'predict') {
    throw new InputError(
      'Invalid inputs: cluster-snapshot is the dump mode: predict predicts against'
    )
  }
  if (fromFile !== undefined) {
    throw new InputError('Invalid inputs: set either cluster-snapshot or from-file, not both')
  }
  return clusterSnapshot
}

function checkPredict(s: Settings): void {
  const other = [
    s.routes.length > 0 && 'routes',
    s.selector !== undefined && 'selector',
    s.allNamespaces && 'all-namespaces',
    s.dryRun && 'dry-run',
    s.comment && 'comment',
    s.verifyTraffic && 'verify-traffic',
    s.watchDurationMs !== undefined && 'watch-duration',
    s.previous !== undefined && 'previous',
    s.stateOut !== undefined && 'state-out'
  ].filter((name) => name !== false)
  if (other.length > 0) {
    throw new InputError(
      `Invalid inputs: ${other.join(', ')} ${other.length === 1 ? 'does' : 'do'} not apply to predict, which predicts the Routes of manifests from objects alone`
    )
  }
  if (s.manifests.length === 0) {
    throw new InputError(
      'Nothing to predict: set manifests (the files of the pull request; - reads stdin)'
    )
  }
  if (s.fromFile === '-' && s.manifests.includes('-')) {
    throw new InputError('Invalid inputs: only one of from-file and manifests can read stdin')
  }
}

function checkDump(s: Settings): void {
  if (s.outputFile === undefined) {
    throw new InputError('Nowhere to write the dump: set -o FILE (or -o - for stdout)')
  }
}

function checkMonitor(s: Settings): void {
  const gateOnly = [
    s.manifests.length > 0 && 'manifests',
    s.routes.length > 0 && 'routes',
    s.dryRun && 'dry-run',
    s.comment && 'comment',
    s.verifyTraffic && 'verify-traffic'
  ].filter((name) => name !== false)
  if (gateOnly.length > 0) {
    throw new InputError(
      `Invalid inputs: ${gateOnly.join(', ')} belong${gateOnly.length === 1 ? 's' : ''} to the gate; monitor judges every Route in scope (namespace, all-namespaces, kinds, selector) and reports in the tracking issue`
    )
  }
  if (s.fromFile !== undefined && s.watchDurationMs !== undefined) {
    throw new InputError(
      'Invalid inputs: watch-duration watches a cluster; it cannot be combined with from-file'
    )
  }
}

function checkGate(s: Settings): void {
  const monitorOnly = [
    s.watchDurationMs !== undefined && 'watch-duration',
    s.previous !== undefined && 'previous',
    s.stateOut !== undefined && 'state-out'
  ].filter((name) => name !== false)
  if (monitorOnly.length > 0) {
    throw new InputError(
      `Invalid inputs: ${monitorOnly.join(', ')} belong${monitorOnly.length === 1 ? 's' : ''} to monitor mode (route-gate monitor, or mode: monitor in the Action)`
    )
  }
}

function checkTraffic(s: Settings): void {
  const needsIt = [
    s.gatewayAddress !== undefined && 'gateway-address',
    s.expectStatus !== undefined && 'expect-status',
    s.trafficCa !== undefined && 'traffic-ca',
    s.trafficSkipTlsVerify && 'traffic-skip-tls-verify',
    s.trafficAllowedCidrs.length > 0 && 'traffic-allowed-cidrs',
    s.trafficShowBody && 'traffic-show-body'
  ].filter((name) => name !== false)
  if (!s.verifyTraffic && needsIt.length > 0) {
    throw new InputError(
      `Invalid inputs: ${needsIt.join(', ')} only ${needsIt.length === 1 ? 'applies' : 'apply'} with verify-traffic: true`
    )
  }
  if (s.trafficCa !== undefined && s.trafficSkipTlsVerify) {
    throw new InputError(
      'Invalid inputs: set either traffic-ca (verify certificates against an extra CA) or traffic-skip-tls-verify (verify nothing), not both'
    )
  }
  if (s.verifyTraffic && (s.fromFile !== undefined || s.dryRun)) {
    throw new InputError(
      `Invalid inputs: verify-traffic sends requests to a live Gateway; it cannot be combined with ${s.dryRun ? 'dry-run' : 'from-file'}`
    )
  }
}
