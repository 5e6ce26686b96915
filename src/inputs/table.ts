// Every input of the Action and every flag of the CLI, in one list: action.yml, the CLI help and the
// README table are checked against it, and a blank input takes the default it declares.
import { DEFAULT_CONDITIONS } from '../model/evaluate.ts'
import { ROUTE_KINDS } from '../model/types.ts'

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
      'How long to wait for every parent to be ready, e.g. `90s`, `5m`, `1h30m`; default `5m`. At the deadline pending parents fail. Predict: the most its work may take, default `2m`; past it, exit 3.',
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
    name: 'until-annotation',
    description:
      'Gate: wait until every Route gated carries this annotation value, `KEY=VALUE` (e.g. a commit SHA your GitOps tool stamps); until then its parents are pending `NotSynced`.',
    arg: 'KEY=VALUE'
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
    name: 'snapshot-partial',
    description:
      'predict: `cluster-snapshot` was cut by namespace or label, so no kind in it is taken to be listed in full. Without it, a dump not written by `route-gate dump` is taken to list every kind it holds at least one object of.',
    default: 'false',
    actionOnly: true
  },
  {
    name: 'partial-dump',
    description:
      'predict: the --from-file dump was cut by namespace or label, so no kind in it is taken to be listed in full. Without it, a dump not written by route-gate dump is taken to list every kind it holds at least one object of.',
    default: 'false',
    cliOnly: true
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
      "The account github-token writes as when it is a GitHub App's installation token, e.g. `my-deployer[bot]`; without it, GitHub's GraphQL viewer is asked. route-gate adopts only the tracking issue and comment that the token's account, or an account with write permission on the repository, wrote.",
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
