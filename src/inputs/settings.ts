// The one typed settings object every run takes, from the Action's INPUT_* and from the CLI's flags
// alike (parse.ts reads them into it).
import type { RouteKind } from '../model/types.ts'
import type { StatusRange } from '../probe/rules/answer.ts'
import type { Cidr } from '../probe/rules/target-guard.ts'

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
  /** gate: every Route must carry this annotation value before it is judged */
  untilAnnotation?: { key: string; value: string }
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
  /** predict: the dump is cut (by namespace or label), so it lists no kind in full */
  partialDump: boolean
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

export interface EntryPoint {
  /** gate: apply the manifests before gating them (default: as the Action's mode says, all but check) */
  apply?: boolean
  /** how the kubeconfig input is read: content (the Action, default) or a path (the CLI) */
  kubeconfig?: 'content' | 'path'
}

/** Reads one input by name: the Action's INPUT_*, or a CLI flag. */
export type InputReader = (name: string) => string | undefined
