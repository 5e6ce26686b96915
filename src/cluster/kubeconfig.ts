// Where the cluster comes from: the kubeconfig input, else KUBECONFIG, else ~/.kube/config, else the
// in-cluster service account. Never client-node's silent http://localhost:8080 fallback. Every
// credential is handed to `mask` before anything could print it.
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, join } from 'node:path'
import { KubeConfig } from '@kubernetes/client-node'
import { ClusterError, InputError } from '../errors.ts'
import { checkRegularFile } from '../files.ts'
import { maskClusterUserinfo, maskRawSecrets, maskUsers, withoutUserinfo } from './secrets.ts'

export interface KubeConfigSource {
  /** kubeconfig content (the action input), not a path */
  kubeconfig?: string
  context?: string
  env: NodeJS.ProcessEnv
  mask: (secret: string) => void
}

export interface LoadedKubeConfig {
  kubeConfig: KubeConfig
  /** without userinfo: it is shown in messages */
  server: string
  contextName: string
  defaultNamespace: string
}

const SERVICE_ACCOUNT_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token'

/**
 * The first line only (js-yaml appends a snippet of the offending input), without what it quotes: an
 * alias or tag it names can be a mistyped credential.
 */
function parseProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return (message.split('\n')[0] ?? message).replace(/"[^"]*"|'[^']*'|!<[^>]*>/g, '…')
}

function loadFile(kubeConfig: KubeConfig, file: string): void {
  // client-node reads it with readFileSync: a FIFO would hang the run before any timeout starts
  checkRegularFile(file, `Invalid kubeconfig ${file}`)
  try {
    kubeConfig.loadFromFile(file)
  } catch (error) {
    throw new InputError(`Invalid kubeconfig ${file}: ${parseProblem(error)}`)
  }
}

/** client-node's mergeConfig throws on duplicate names, where kubectl keeps the first entry. */
function mergeFirstWins(into: KubeConfig, next: KubeConfig): void {
  const has = (list: { name: string }[], name: string): boolean =>
    list.some((entry) => entry.name === name)
  next.clusters = next.clusters.filter((cluster) => !has(into.clusters, cluster.name))
  next.users = next.users.filter((user) => !has(into.users, user.name))
  next.contexts = next.contexts.filter((context) => !has(into.contexts, context.name))
  into.mergeConfig(next, Boolean(into.currentContext))
}

function loadSource(source: KubeConfigSource): KubeConfig {
  const kubeConfig = new KubeConfig()
  if (source.kubeconfig !== undefined && source.kubeconfig.trim() !== '') {
    try {
      kubeConfig.loadFromString(source.kubeconfig)
    } catch (error) {
      // masked from the raw text, as the parser did not get to the fields: the text may be printed
      maskRawSecrets(source.kubeconfig, source.mask)
      throw new InputError(`Invalid kubeconfig: ${parseProblem(error)}`)
    }
    return kubeConfig
  }
  const files = (source.env.KUBECONFIG ?? '').split(delimiter).filter((file) => existsSync(file))
  if (files.length > 0) {
    // kubectl's merge rule: the first file to set a value wins, current-context included.
    const [first, ...rest] = files
    loadFile(kubeConfig, first as string)
    for (const file of rest) {
      const next = new KubeConfig()
      loadFile(next, file)
      mergeFirstWins(kubeConfig, next)
    }
    return kubeConfig
  }
  const home = join(source.env.HOME ?? homedir(), '.kube', 'config')
  if (existsSync(home)) {
    loadFile(kubeConfig, home)
    return kubeConfig
  }
  if (source.env.KUBERNETES_SERVICE_HOST && existsSync(SERVICE_ACCOUNT_TOKEN)) {
    kubeConfig.loadFromCluster()
    return kubeConfig
  }
  throw new ClusterError(
    'No cluster configured: set the kubeconfig input, KUBECONFIG, or run in a cluster'
  )
}

/** The certificate and key files the context names, which client-node reads synchronously too. */
function checkCredentialFiles(kubeConfig: KubeConfig, contextName: string): void {
  const cluster = kubeConfig.getCurrentCluster()
  const user = kubeConfig.getCurrentUser()
  const files: [string | undefined, string][] = [
    [cluster?.caFile, `cluster "${cluster?.name}" certificate-authority`],
    [user?.certFile, `user "${user?.name}" client-certificate`],
    [user?.keyFile, `user "${user?.name}" client-key`]
  ]
  for (const [file, field] of files) {
    if (file)
      checkRegularFile(file, `Invalid kubeconfig (context "${contextName}"): ${field} ${file}`)
  }
}

export function loadKubeConfig(source: KubeConfigSource): LoadedKubeConfig {
  const kubeConfig = loadSource(source)
  maskUsers(kubeConfig.getUsers(), source.mask)
  maskClusterUserinfo(kubeConfig.getClusters(), source.mask)
  const contextNames = kubeConfig.getContexts().map((context) => context.name)
  const known = contextNames.length > 0 ? contextNames.join(', ') : 'none'
  if (source.context) {
    if (!kubeConfig.getContextObject(source.context)) {
      throw new InputError(
        `Context "${source.context}" not found in the kubeconfig (contexts: ${known})`
      )
    }
    kubeConfig.setCurrentContext(source.context)
  }
  const contextName = kubeConfig.getCurrentContext()
  const context = contextName ? kubeConfig.getContextObject(contextName) : null
  if (!context) {
    throw new InputError(
      `The kubeconfig has no current context; set the context input (contexts: ${known})`
    )
  }
  const cluster = kubeConfig.getCurrentCluster()
  if (!cluster?.server) {
    throw new InputError(
      `Context "${contextName}" names cluster "${context.cluster}", which the kubeconfig does not define`
    )
  }
  checkCredentialFiles(kubeConfig, contextName)
  return {
    kubeConfig,
    server: withoutUserinfo(cluster.server),
    contextName,
    defaultNamespace: context.namespace || 'default'
  }
}
