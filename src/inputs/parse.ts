// Every input of the Action and every flag of the CLI, parsed and validated once into one typed
// Settings object. The Action reads INPUT_* through @actions/core, the CLI reads its flags; both hand
// this module a plain `read(name)` and get the same settings and the same error messages.
import { InputError } from '../runtime/errors.ts'
import type { Command, EntryPoint, InputReader, Settings } from './settings.ts'
import {
  parseBoolean,
  parseCidrs,
  parseClusterName,
  parseAnnotation,
  parseConditions,
  parseCount,
  parseDuration,
  parseEnum,
  parseGatewayAddress,
  parseKinds,
  parseLogin,
  parseNamespace,
  parseRouteRef,
  parseSelector,
  parseStatusRanges,
  splitList
} from './values.ts'
import { INPUTS } from './table.ts'
import { checkCombinations } from './validate.ts'

const MODES = ['gate', 'check', 'apply', 'monitor', 'predict'] as const
/** `timeout` when none is given: a wait on controllers, and a prediction's work on the runner */
const GATE_TIMEOUT = '5m'
const PREDICT_TIMEOUT = '2m'

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
    ...readinessOf(input, conditions, command === 'predict' || mode === 'predict'),
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
  conditions: string[],
  predicting: boolean
): Pick<
  Settings,
  'timeoutMs' | 'heartbeatMs' | 'conditions' | 'untilAnnotation' | 'failFast' | 'strict'
> {
  // a prediction is work on the runner alone, bounded sooner than a wait on controllers
  const timeout = input.optional('timeout') ?? (predicting ? PREDICT_TIMEOUT : GATE_TIMEOUT)
  return {
    timeoutMs: parseDuration(timeout),
    heartbeatMs: parseDuration(input.value('heartbeat'), 'heartbeat'),
    conditions,
    untilAnnotation: input.optionalWith('until-annotation', parseAnnotation),
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
): Pick<
  Settings,
  'summary' | 'annotations' | 'fromFile' | 'partialDump' | 'outputFile' | 'format' | 'reportFile'
> {
  return {
    summary: input.flag('summary'),
    annotations: input.flag('annotations'),
    fromFile: snapshotOf(input.optional('from-file'), input.optional('cluster-snapshot'), mode),
    partialDump: input.flag('partial-dump') || input.flag('snapshot-partial'),
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

function kubeconfigOf(
  given: string | undefined,
  form: 'content' | 'path'
): Pick<Settings, 'kubeconfig' | 'kubeconfigFile'> {
  if (!given?.trim()) return {}
  return form === 'path' ? { kubeconfigFile: given.trim() } : { kubeconfig: given }
}
