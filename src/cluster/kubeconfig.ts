// Where the cluster comes from: the kubeconfig input, else KUBECONFIG, else ~/.kube/config, else the
// in-cluster service account. Never client-node's silent http://localhost:8080 fallback. Every
// credential is handed to `mask` before anything could print it (kubeconfig-text.ts).
import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { ClusterError, InputError } from '../runtime/errors.ts'
import { checkRegularFile, readUserFile } from '../read/files.ts'
import {
  mergeFirstWins,
  readKubeconfigText,
  type KubeCluster,
  type KubeconfigValues,
  type KubeContext,
  type KubeUser
} from './kubeconfig-text.ts'
import { withoutUserinfo } from './secrets.ts'

export interface KubeConfigSource {
  /** kubeconfig content (the action input), not a path */
  kubeconfig?: string
  context?: string
  env: NodeJS.ProcessEnv
  mask: (secret: string) => void
  /** where the in-cluster service account is mounted; tests point it elsewhere */
  serviceAccountDir?: string
}

export interface LoadedKubeConfig {
  cluster: KubeCluster
  /** a context without a user: one without credentials */
  user: KubeUser
  /** without userinfo: it is shown in messages */
  server: string
  contextName: string
  defaultNamespace: string
}

const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount'

async function loadFile(file: string, mask: (secret: string) => void): Promise<KubeconfigValues> {
  const label = `Invalid kubeconfig ${file}`
  const text = (await readUserFile(file, label)).toString('utf8')
  return readKubeconfigText({ text, label, dir: dirname(file), mask })
}

/**
 * What client-node's loadFromCluster made of a pod's service account: the API server from
 * KUBERNETES_SERVICE_HOST and _PORT, the mounted CA and token (re-read as it rotates), the namespace.
 */
function inCluster(env: NodeJS.ProcessEnv, dir: string): KubeconfigValues {
  const host = env.KUBERNETES_SERVICE_HOST ?? ''
  const port = env.KUBERNETES_SERVICE_PORT ?? ''
  const scheme = ['80', '8080', '8001'].includes(port) ? 'http' : 'https'
  // an IPv6 address, the one kind of host with a colon, in brackets as a URL takes it
  const server = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`
  const namespaceFile = join(dir, 'namespace')
  const namespace = existsSync(namespaceFile)
    ? readFileSync(namespaceFile, 'utf8').trim() || undefined
    : undefined
  return {
    clusters: [{ name: 'inCluster', server, caFile: join(dir, 'ca.crt'), skipTLSVerify: false }],
    users: [{ name: 'inClusterUser', tokenFile: join(dir, 'token') }],
    contexts: [
      { name: 'inClusterContext', cluster: 'inCluster', user: 'inClusterUser', namespace }
    ],
    currentContext: 'inClusterContext'
  }
}

async function loadSource(source: KubeConfigSource): Promise<KubeconfigValues> {
  const { mask } = source
  if (source.kubeconfig !== undefined && source.kubeconfig.trim() !== '') {
    return readKubeconfigText({ text: source.kubeconfig, label: 'Invalid kubeconfig', mask })
  }
  const files = (source.env.KUBECONFIG ?? '').split(delimiter).filter((file) => existsSync(file))
  if (files.length > 0) {
    const configs: KubeconfigValues[] = []
    for (const file of files) configs.push(await loadFile(file, mask))
    return mergeFirstWins(configs)
  }
  const home = join(source.env.HOME ?? homedir(), '.kube', 'config')
  if (existsSync(home)) return loadFile(home, mask)
  const serviceAccount = source.serviceAccountDir ?? SERVICE_ACCOUNT_DIR
  if (source.env.KUBERNETES_SERVICE_HOST && existsSync(join(serviceAccount, 'token'))) {
    return inCluster(source.env, serviceAccount)
  }
  throw new ClusterError(
    'No cluster configured: set the kubeconfig input, KUBECONFIG, or run in a cluster'
  )
}

/**
 * The files the context names, which are read synchronously: a FIFO would hang the run before any
 * timeout starts, /dev/zero would never end.
 */
function checkCredentialFiles(cluster: KubeCluster, user: KubeUser, contextName: string): void {
  const files: [string | undefined, string][] = [
    [cluster.caFile, `cluster "${cluster.name}" certificate-authority`],
    [user.certFile, `user "${user.name}" client-certificate`],
    [user.keyFile, `user "${user.name}" client-key`],
    [user.token === undefined ? user.tokenFile : undefined, `user "${user.name}" token-file`]
  ]
  for (const [file, field] of files) {
    if (file)
      checkRegularFile(file, `Invalid kubeconfig (context "${contextName}"): ${field} ${file}`)
  }
}

export async function loadKubeConfig(source: KubeConfigSource): Promise<LoadedKubeConfig> {
  const config = await loadSource(source)
  const known = config.contexts.length > 0 ? config.contexts.map((c) => c.name).join(', ') : 'none'
  const find = (name: string | undefined): KubeContext | undefined =>
    config.contexts.find((context) => context.name === name)
  if (source.context && !find(source.context)) {
    throw new InputError(
      `Context "${source.context}" not found in the kubeconfig (contexts: ${known})`
    )
  }
  const context = find(source.context || config.currentContext)
  if (!context) {
    throw new InputError(
      `The kubeconfig has no current context; set the context input (contexts: ${known})`
    )
  }
  const cluster = config.clusters.find((entry) => entry.name === context.cluster)
  if (!cluster) {
    throw new InputError(
      `Context "${context.name}" names cluster "${context.cluster}", which the kubeconfig does not define`
    )
  }
  // client-node's getCurrentUser: a user the context names but the kubeconfig lacks has no credentials
  const user = config.users.find((entry) => entry.name === context.user) ?? {
    name: context.user ?? ''
  }
  checkCredentialFiles(cluster, user, context.name)
  return {
    cluster,
    user,
    server: withoutUserinfo(cluster.server),
    contextName: context.name,
    defaultNamespace: context.namespace || 'default'
  }
}
