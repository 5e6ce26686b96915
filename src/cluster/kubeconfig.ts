// Where the cluster comes from: the kubeconfig input, else KUBECONFIG, else ~/.kube/config, else the
// in-cluster service account. Never client-node's silent http://localhost:8080 fallback. Every
// credential is handed to `mask` before anything could print it (kubeconfig-text.ts).
import { existsSync, readFileSync, statSync } from 'node:fs'
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
import { identifies, unusable, usesTls } from './kubeconfig-usable.ts'
import { withoutUserinfo } from './secrets.ts'

export interface KubeConfigSource {
  /** kubeconfig content (the action input), not a path */
  kubeconfig?: string
  context?: string
  env: NodeJS.ProcessEnv
  mask: (secret: string) => void
  /** where the in-cluster service account is mounted; tests point it elsewhere */
  serviceAccountDir?: string
  /** a warning for the log (a KUBECONFIG file skipped); default: standard error, as the YAML reader's */
  warn?: (message: string) => void
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
 * What client-go's InClusterConfig makes of a pod's service account: https:// to
 * KUBERNETES_SERVICE_HOST and _PORT, the mounted CA and token (re-read as it rotates), the namespace.
 */
function inCluster(env: NodeJS.ProcessEnv, dir: string): KubeconfigValues {
  const host = env.KUBERNETES_SERVICE_HOST ?? ''
  const port = env.KUBERNETES_SERVICE_PORT ?? ''
  // an IPv6 address, the one kind of host with a colon, in brackets as a URL takes it
  const server = `https://${host.includes(':') ? `[${host}]` : host}:${port}`
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

/**
 * The files KUBECONFIG names that exist, as kubectl's loader takes them: a missing one is skipped
 * (with a warning here), one that cannot be read fails the run. When it names only missing files
 * kubectl reads no kubeconfig at all, not ~/.kube/config.
 */
function kubeconfigFiles(value: string, warn: (message: string) => void): string[] {
  const named = value.split(delimiter).filter((file) => file !== '')
  const missing = named.filter((file) => {
    try {
      statSync(file)
      return false
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT'
    }
  })
  if (missing.length > 0 && missing.length < named.length) {
    warn(
      `KUBECONFIG names files that do not exist, skipped as kubectl skips them: ${missing.join(', ')}`
    )
  }
  return named.filter((file) => !missing.includes(file))
}

async function loadSource(source: KubeConfigSource): Promise<KubeconfigValues> {
  const { mask, env } = source
  if (source.kubeconfig !== undefined && source.kubeconfig.trim() !== '') {
    return readKubeconfigText({ text: source.kubeconfig, label: 'Invalid kubeconfig', mask })
  }
  const serviceAccount = source.serviceAccountDir ?? SERVICE_ACCOUNT_DIR
  const inClusterPossible = env.KUBERNETES_SERVICE_HOST && existsSync(join(serviceAccount, 'token'))
  if (env.KUBECONFIG) {
    const warn =
      source.warn ??
      ((message: string) => process.stderr.write(`route-gate: warning: ${message}\n`))
    const files = kubeconfigFiles(env.KUBECONFIG, warn)
    if (files.length === 0 && inClusterPossible) return inCluster(env, serviceAccount)
    if (files.length === 0) {
      throw new InputError(
        `KUBECONFIG names no file that exists (${env.KUBECONFIG}): kubectl would read no kubeconfig, not ~/.kube/config, and try http://localhost:8080; fix or unset KUBECONFIG`
      )
    }
    const configs: KubeconfigValues[] = []
    for (const file of files) configs.push(await loadFile(file, mask))
    return mergeFirstWins(configs)
  }
  const home = join(env.HOME ?? homedir(), '.kube', 'config')
  if (existsSync(home)) return loadFile(home, mask)
  if (inClusterPossible) return inCluster(env, serviceAccount)
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
    // with a token beside it, kubectl falls back to the token when the file cannot be read
    [user.token === undefined ? user.tokenFile : undefined, `user "${user.name}" tokenFile`]
  ]
  for (const [file, field] of files) {
    if (file)
      checkRegularFile(file, `Invalid kubeconfig (context "${contextName}"): ${field} ${file}`)
  }
}

/**
 * client-go reads a token file into the bearer token before it decides whether the user is anyone:
 * an empty file is no token, and a user with nothing else gets kubectl's password prompt.
 */
function refuseEmptyTokenFile(cluster: KubeCluster, user: KubeUser, contextName: string): void {
  const file = user.token === undefined ? user.tokenFile : undefined
  if (
    file === undefined ||
    !usesTls(cluster.server) ||
    identifies({ ...user, tokenFile: undefined })
  )
    return
  if (statSync(file).size === 0) {
    throw new InputError(
      `Invalid kubeconfig (context "${contextName}"): user "${user.name}" tokenFile ${file} is empty: kubectl would prompt for a username and password`
    )
  }
}

/**
 * The URL requests go to. client-go takes a server without a scheme ("10.0.0.1:6443") as plain
 * HTTP, and a scheme it cannot speak fails every request: refused before any.
 */
function requestServer(cluster: KubeCluster): string {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(cluster.server)?.[1]?.toLowerCase()
  if (scheme === undefined) return `http://${cluster.server}`
  if (scheme === 'http' || scheme === 'https') return cluster.server
  throw new InputError(
    `Invalid kubeconfig: cluster "${cluster.name}" server is no http:// or https:// URL`
  )
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
      config.currentContext === undefined
        ? `The kubeconfig has no current context; set the context input (contexts: ${known})`
        : `The kubeconfig's current-context "${config.currentContext}" is none of its contexts (${known}); set the context input`
    )
  }
  const cluster = config.clusters.find((entry) => entry.name === context.cluster)
  const found = config.users.find((entry) => entry.name === context.user)
  const problem = unusable(context, cluster, found)
  if (problem !== undefined || cluster === undefined) {
    throw new InputError(`Invalid kubeconfig: ${problem ?? 'no cluster'}`)
  }
  // over plain HTTP kubectl sends no credentials at all
  const user = found ?? { name: context.user ?? '' }
  checkCredentialFiles(cluster, user, context.name)
  refuseEmptyTokenFile(cluster, user, context.name)
  return {
    cluster,
    user,
    server: withoutUserinfo(requestServer(cluster)),
    contextName: context.name,
    defaultNamespace: context.namespace || 'default'
  }
}
