// The bad-input corpus: every case with the inputs that provoke it and the exact error expected. The
// manifests live in ./manifests (byte-exact on purpose: prettier leaves them alone). Placeholders in
// inputs and messages: {ns} a fresh namespace, {huge} a generated file over the size limit, {server}
// the API server, {context} the kubeconfig context, {fifo} and {zerodir} special files (specialFiles).
// Exit 2 is the user's input, 3 the cluster.
import { execFileSync } from 'node:child_process'
import { mkdir, symlink } from 'node:fs/promises'
import path from 'node:path'

export type KubeconfigVariant = 'malformed' | 'no-context' | 'unreachable' | 'wrong-ca'

/** Nothing listens on port 2 of the loopback (fetch refuses port 1 outright): connection refused. */
export const UNREACHABLE_SERVER = 'https://127.0.0.1:2'
/** A credential in the case kubeconfigs: no message, log or output may ever show it. */
export const CASE_TOKEN = 'rg-case-token-5b0c1e7a9d'

/**
 * The kubeconfig of a variant. `server` and `caData` (base64 PEM of a CA that did not sign the
 * server's certificate) matter for wrong-ca only.
 */
export function caseKubeconfig(
  variant: KubeconfigVariant,
  wrongCa?: { server: string; caData: string }
): string {
  // the fault sits mid-text: the Action trims its inputs, the CLI does not
  // a tab where go-yaml v2 (kubectl's YAML) expects an indent
  if (variant === 'malformed') return 'apiVersion: v1\nkind: Config\nclusters:\n\t- name: c\n'
  const cluster =
    variant === 'wrong-ca' && wrongCa
      ? `    server: ${wrongCa.server}\n    certificate-authority-data: ${wrongCa.caData}`
      : `    server: ${UNREACHABLE_SERVER}`
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: test',
    '  cluster:',
    cluster,
    'users:',
    '- name: ci',
    '  user:',
    `    token: ${CASE_TOKEN}`,
    'contexts:',
    '- name: test',
    '  context: {cluster: test, user: ci}',
    'current-context: test',
    ''
  ].join('\n')
}

/** Fills {ns}, {huge}, {server}, {context}, {fifo} and {zerodir} into a case's inputs or message. */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(
    /\{(ns|huge|server|context|fifo|zerodir|kubeconfigFile)\}/g,
    (whole, key: string) => values[key] ?? whole
  )
}

/**
 * Made at run time (git would keep neither well): {fifo}, a FIFO nobody writes to, and {zerodir}, a
 * folder whose manifest is a symlink to /dev/zero, as a pull request can commit one.
 */
export async function specialFiles(dir: string): Promise<{ fifo: string; zerodir: string }> {
  const fifo = path.join(dir, 'routes.fifo.yaml')
  execFileSync('mkfifo', [fifo])
  const zerodir = path.join(dir, 'zero')
  await mkdir(zerodir)
  await symlink('/dev/zero', path.join(zerodir, 'zero.yaml'))
  return { fifo, zerodir }
}

export interface BadInputCase {
  name: string
  /** Action inputs; the CLI gets the same as --flags */
  inputs: Record<string, string>
  /** a kubeconfig built for the case, passed as the kubeconfig input instead of the cluster's */
  kubeconfig?: KubeconfigVariant
  /** needs a real API server to be refused (the unit test runs the others on a fake cluster) */
  cluster: boolean
  code: 2 | 3
  /** the whole message, after "route-gate: " */
  message: string
  /** the CLI's, where it differs: its --kubeconfig is a path ({kubeconfigFile}), named in the message */
  cliMessage?: string
  /** objects of the manifests that must not exist in {ns} afterwards: nothing applied */
  notApplied?: ('services/web' | 'httproutes/web')[]
}

const manifest = (file: string, extra: Record<string, string> = {}): Record<string, string> => ({
  manifests: `manifests/${file}`,
  namespace: '{ns}',
  timeout: '10s',
  ...extra
})

const route = (extra: Record<string, string>): Record<string, string> => ({
  routes: 'httproute/web',
  timeout: '3s',
  ...extra
})

export const BAD_INPUTS: BadInputCase[] = [
  {
    name: 'empty file',
    inputs: manifest('empty.yaml'),
    cluster: false,
    code: 2,
    message: 'manifests/empty.yaml: the file is empty'
  },
  {
    name: 'only comments and separators',
    inputs: manifest('comments-only.yaml'),
    cluster: false,
    code: 2,
    message: 'manifests/comments-only.yaml: no documents (only comments or separators)'
  },
  {
    name: 'binary data',
    inputs: manifest('binary.yaml'),
    cluster: false,
    code: 2,
    message: 'manifests/binary.yaml: binary data, not a YAML or JSON manifest'
  },
  {
    name: 'YAML syntax error',
    inputs: manifest('syntax-error.yaml'),
    cluster: false,
    code: 2,
    message:
      'manifests/syntax-error.yaml document 1 (line 7, column 3): invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]'
  },
  {
    name: 'YAML alias bomb',
    inputs: manifest('alias-bomb.yaml'),
    cluster: false,
    code: 2,
    message:
      'manifests/alias-bomb.yaml document 1 (line 8, column 10): invalid YAML: more than 100 aliases (excessive aliasing)'
  },
  {
    name: 'huge file',
    inputs: { ...manifest('x'), manifests: '{huge}' },
    cluster: false,
    code: 2,
    message: '{huge}: 134217729 bytes is too large (at most 128 MiB)'
  },
  {
    name: 'manifests entry that is a FIFO (no writer: must not hang)',
    inputs: { ...manifest('x'), manifests: '{fifo}' },
    cluster: false,
    code: 2,
    message: '{fifo}: a FIFO, not a regular file'
  },
  {
    name: 'manifests folder holding a symlink to /dev/zero',
    inputs: { ...manifest('x'), manifests: '{zerodir}' },
    cluster: false,
    code: 2,
    message: '{zerodir}/zero.yaml: a character device, not a regular file'
  },
  {
    name: 'document without kind (after a valid one)',
    inputs: manifest('no-kind.yaml'),
    cluster: false,
    code: 2,
    message: 'manifests/no-kind.yaml document 2: field "kind" is missing or not a string',
    notApplied: ['services/web']
  },
  {
    name: 'document without metadata.name',
    inputs: manifest('no-name.yaml'),
    cluster: false,
    code: 2,
    message: 'manifests/no-name.yaml document 1: field "metadata.name" is missing or not a string'
  },
  {
    name: 'document that is a list, not a mapping',
    inputs: manifest('not-a-mapping.yaml'),
    cluster: false,
    code: 2,
    message:
      'manifests/not-a-mapping.yaml document 1: a Kubernetes object must be a mapping, got a list'
  },
  {
    name: 'status.parents as a string',
    inputs: manifest('parents-string.yaml'),
    cluster: false,
    code: 2,
    message:
      'manifests/parents-string.yaml document 1 (HTTPRoute web): field "status.parents" must be a list'
  },
  {
    name: 'condition with status: maybe',
    inputs: manifest('condition-maybe.yaml'),
    cluster: false,
    code: 2,
    message:
      'manifests/condition-maybe.yaml document 1 (HTTPRoute web): field "status.parents[0].conditions[0].status" must be True, False or Unknown, not "maybe"'
  },
  {
    name: 'parentRef port as a string',
    inputs: manifest('port-string.yaml'),
    cluster: false,
    code: 2,
    message:
      'manifests/port-string.yaml document 1 (HTTPRoute web): field "spec.parentRefs[0].port" must be an integer from 1 to 65535'
  },
  {
    name: 'List whose items is not a list',
    inputs: manifest('items-not-a-list.yaml'),
    cluster: false,
    code: 2,
    message: 'manifests/items-not-a-list.yaml document 1: field "items" of a List must be a list'
  },
  {
    name: 'duplicate Routes across files',
    inputs: manifest('duplicate-routes'),
    cluster: false,
    code: 2,
    message:
      'manifests/duplicate-routes/b.yaml document 2: HTTPRoute web is also defined in manifests/duplicate-routes/a.yaml document 1',
    notApplied: ['services/web', 'httproutes/web']
  },
  {
    name: 'manifests without a Route',
    inputs: manifest('no-route.yaml'),
    cluster: false,
    code: 2,
    message:
      'manifests hold no Route (HTTPRoute, GRPCRoute, TLSRoute, TCPRoute, UDPRoute): nothing to gate among 1 documents',
    notApplied: ['services/web']
  },
  {
    name: 'manifests entry that matches nothing',
    inputs: manifest('missing/*.yaml'),
    cluster: false,
    code: 2,
    message: 'manifests entry "manifests/missing/*.yaml": no such file'
  },
  {
    name: 'unknown kind (between valid documents)',
    inputs: manifest('unknown-kind.yaml'),
    cluster: true,
    code: 2,
    message:
      'manifests/unknown-kind.yaml document 2 (Widget web): {server} (context {context}) does not serve kind Widget in example.com/v1 (is its CRD installed?)',
    notApplied: ['services/web', 'httproutes/web']
  },
  {
    name: 'Route the API server rejects (CEL and schema validation)',
    inputs: manifest('server-rejects.yaml'),
    cluster: true,
    code: 2,
    message:
      "manifests/server-rejects.yaml document 2 (HTTPRoute {ns}/web): HTTPRoute.gateway.networking.k8s.io \"web\" is invalid: [spec.hostnames[0]: Invalid value: \"Not A Hostname!\": spec.hostnames[0] in body should match '^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', spec.rules[0].matches[0].path: Invalid value: value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']]",
    notApplied: ['services/web', 'httproutes/web']
  },
  {
    name: 'bad duration',
    inputs: route({ timeout: '5 minutes' }),
    cluster: false,
    code: 2,
    message: 'Invalid timeout "5 minutes": use a duration like 90s, 5m or 1h'
  },
  {
    name: 'zero duration',
    inputs: route({ timeout: '0s' }),
    cluster: false,
    code: 2,
    message: 'Invalid timeout "0s": it must be longer than zero'
  },
  {
    name: 'duration over a day',
    inputs: route({ timeout: '25h' }),
    cluster: false,
    code: 2,
    message: 'Invalid timeout "25h": at most 24h'
  },
  {
    name: 'bad label selector',
    inputs: { selector: 'app in prod', namespace: 'default' },
    cluster: false,
    code: 2,
    message:
      'Invalid selector "app in prod": "app in prod" is not a label selector term; use e.g. app=web, tier!=db, env in (prod,staging) or !legacy'
  },
  {
    name: 'label selector with an empty key',
    inputs: { selector: 'app=web,=x', namespace: 'default' },
    cluster: false,
    code: 2,
    message:
      'Invalid selector "app=web,=x": "=x" is not a label selector term; use e.g. app=web, tier!=db, env in (prod,staging) or !legacy'
  },
  {
    name: 'unknown Route kind in routes',
    inputs: route({ routes: 'widget/web' }),
    cluster: false,
    code: 2,
    message:
      'Invalid routes entry "widget/web": unknown kind "widget", use one of HTTPRoute, GRPCRoute, TLSRoute, TCPRoute, UDPRoute'
  },
  {
    name: 'invalid namespace name',
    inputs: route({ namespace: 'Shop_1' }),
    cluster: false,
    code: 2,
    message: 'Invalid namespace "Shop_1": not a valid namespace name'
  },
  {
    name: 'malformed kubeconfig',
    inputs: route({}),
    kubeconfig: 'malformed',
    cluster: false,
    code: 2,
    message:
      'Invalid kubeconfig: line 4, column 1: invalid YAML: Tabs are not allowed as indentation',
    cliMessage:
      'Invalid kubeconfig {kubeconfigFile}: line 4, column 1: invalid YAML: Tabs are not allowed as indentation'
  },
  {
    name: 'context missing from the kubeconfig',
    inputs: route({ context: 'staging' }),
    kubeconfig: 'no-context',
    cluster: false,
    code: 2,
    message: 'Context "staging" not found in the kubeconfig (contexts: test)'
  },
  {
    name: 'unreachable server',
    // a long timeout: the run must end at the first-contact limit, in seconds, not at the deadline
    inputs: route({ timeout: '5m' }),
    kubeconfig: 'unreachable',
    cluster: false,
    code: 3,
    message:
      "cannot reach {server} (context test): connection refused (ECONNREFUSED) (still, after 3 s of retries); nothing accepts connections there: check that the API server runs and that the kubeconfig's server address and port are right"
  },
  {
    name: 'TLS failure: the server certificate is not signed by the configured CA',
    inputs: route({}),
    kubeconfig: 'wrong-ca',
    cluster: true,
    code: 3,
    message:
      "cannot reach {server} (context test): TLS certificate rejected (UNABLE_TO_VERIFY_LEAF_SIGNATURE): check the kubeconfig's certificate-authority and that the server's certificate covers its address (get discovery /apis/gateway.networking.k8s.io)"
  },
  {
    name: 'namespace that does not exist',
    inputs: route({ namespace: 'no-such-namespace-3f9a' }),
    cluster: true,
    code: 3,
    message: 'Namespace "no-such-namespace-3f9a" not found on {server} (context {context})'
  }
]
