// The kubeconfig context's TLS material and authentication, put on each request's Node options: what
// client-node's applyToHTTPSOptions did, without loading client-node (a fifth of a gate's memory)
// unless the context needs what only it has: the oidc auth-provider (the one kubectl still has) or a
// proxy-url.
//
// A user can get its credentials by running a command: an exec plugin. Such a command can print
// anything; its failure is reported as what failed
// and how it ended, never its output (a plugin's stderr can echo a secret) or its arguments (client
// secrets go there), and every token it returns is masked before any request carries it.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type http from 'node:http'
import type https from 'node:https'
import type { Cluster, KubeConfig, User } from '@kubernetes/client-node'
import { ClusterError } from '../runtime/errors.ts'
import { checkRegularFile } from '../read/files.ts'
import { CredentialCommand, ExecPlugin, PluginFailure, type ExecCluster } from './exec-plugin.ts'
import type { KubeCluster, KubeUser } from './kubeconfig-text.ts'
import type { LoadedKubeConfig } from './kubeconfig.ts'
import { hasOwnCredentials, usesTls } from './kubeconfig-usable.ts'
import { MIN_SECRET_LENGTH, withoutUserinfo } from './secrets.ts'

/** Puts the context's TLS material and credentials on a request's options. */
/** What these credentials put on a request: TLS material, headers, basic auth, a proxy's agent. */
export type Applied = Omit<https.RequestOptions, 'headers'> & { headers: http.OutgoingHttpHeaders }

/**
 * Puts the credentials on a request's options; a credential command it starts is killed once
 * `signal` (the request's) aborts.
 */
export type Authenticate = ((opts: Applied, signal?: AbortSignal) => Promise<void>) & {
  /** the credential command still running, said as the run's last word if the run ends meanwhile */
  stillRunning?: () => string | undefined
  /** the kubeconfig's proxy-url without its userinfo ("http://proxy:3128"), for messages */
  proxy?: string
}

/** Puts a credential a command or provider gives on `opts`; throws the ClusterError to report. */
type Source = ((opts: Applied, signal?: AbortSignal) => Promise<void>) & {
  stillRunning?: () => string | undefined
}

/** client-go re-reads a token file at most this often: a rotated token is picked up within it. */
export const TOKEN_FILE_REREAD_MS = 60_000

/** The material Node's TLS takes, read once: the agent keeps one connection pool per identity. */
function tlsOptions(cluster: KubeCluster, user: KubeUser): Partial<Applied> {
  const bytes = (file: string | undefined, data: string | undefined): Buffer | undefined =>
    file ? readFileSync(file) : data ? Buffer.from(data, 'base64') : undefined
  const tls: Partial<Applied> = {}
  if (cluster.skipTLSVerify) tls.rejectUnauthorized = false
  if (cluster.tlsServerName) tls.servername = cluster.tlsServerName
  const ca = bytes(cluster.caFile, cluster.caData)
  const cert = bytes(user.certFile, user.certData)
  const key = bytes(user.keyFile, user.keyData)
  if (ca) tls.ca = ca
  if (cert) tls.cert = cert
  if (key) tls.key = key
  return tls
}

/**
 * The authentication of `loaded`'s context. `cluster` names it in messages; every token a command,
 * provider or token file gives is handed to `mask` before a request carries it.
 */
export function authenticationFor(
  loaded: LoadedKubeConfig,
  cluster: string,
  mask: (secret: string) => void
): Authenticate {
  const { user } = loaded
  const masked = new Set<string>()
  const maskToken = (token: string | undefined): void => {
    if (token !== undefined && token.length >= MIN_SECRET_LENGTH && !masked.has(token)) {
      masked.add(token)
      mask(token)
    }
  }
  // client-go reads the credentials and the server's TLS settings only for an https:// server
  const secure = usesTls(loaded.server)
  const tls = secure ? tlsOptions(loaded.cluster, user) : {}
  const source = secure ? credentialSource(loaded, cluster) : undefined
  const fileToken =
    secure && user.tokenFile
      ? tokenFile(user.tokenFile, `Invalid kubeconfig: user "${user.name}" tokenFile`, user.token)
      : undefined
  const proxy = loaded.cluster.proxyUrl ? proxyAgent(loaded.cluster, user) : undefined
  const authenticate = async (opts: Applied, signal?: AbortSignal): Promise<void> => {
    Object.assign(opts, tls)
    impersonate(opts.headers, user)
    if (source) {
      await source(opts, signal)
      const authorization = opts.headers.Authorization
      maskToken(
        typeof authorization === 'string' ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined
      )
    }
    if (secure) {
      // the token file's token, read again as it rotates, comes before the inline one
      const fromFile = fileToken?.()
      maskToken(fromFile)
      const token = fromFile ?? user.token
      if (token !== undefined) opts.headers.Authorization = `Bearer ${token}`
      // client-go's HasBasicAuth: a username, with or without a password
      if (user.username !== undefined) opts.auth = `${user.username}:${user.password ?? ''}`
    }
    if (proxy) await proxy(opts)
  }
  return Object.assign(authenticate, {
    stillRunning: source?.stillRunning,
    proxy: loaded.cluster.proxyUrl ? withoutUserinfo(loaded.cluster.proxyUrl) : undefined
  })
}

/**
 * client-go's impersonation headers: the user, its UID, a header per group and per extra value,
 * the extra's key percent-encoded where a header name cannot hold it.
 */
function impersonate(headers: http.OutgoingHttpHeaders, user: KubeUser): void {
  if (user.impersonate === undefined) return
  headers['Impersonate-User'] = user.impersonate
  if (user.impersonateUid !== undefined) headers['Impersonate-Uid'] = user.impersonateUid
  if (user.impersonateGroups !== undefined) headers['Impersonate-Group'] = user.impersonateGroups
  for (const [key, values] of Object.entries(user.impersonateExtra ?? {})) {
    const name = key.replace(/[^A-Za-z0-9!#$&'*+.^_`|~-]/g, (c) =>
      [...Buffer.from(c)]
        .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
        .join('')
    )
    if (values.length > 0) headers[`Impersonate-Extra-${name}`] = values
  }
}

/**
 * The token in a token file (the service account's rotates), re-read at most once a minute as
 * client-go does. A failed re-read keeps the token read before, and `inline` (a token beside the
 * file) stands in while the file cannot be read; without one the first read's failure was refused
 * with the kubeconfig (kubeconfig.ts checks the file).
 */
function tokenFile(file: string, label: string, inline?: string): () => string | undefined {
  let token: string | undefined
  let readAt = -Infinity
  return () => {
    if (Date.now() - readAt <= TOKEN_FILE_REREAD_MS) return token ?? inline
    try {
      checkRegularFile(file, `${label} ${file}`)
      token = readFileSync(file, 'utf8').trim() || undefined
    } catch (error) {
      if (token === undefined && inline === undefined) throw error
    }
    readAt = Date.now()
    return token ?? inline
  }
}

/**
 * A client-node KubeConfig holding just `cluster` and `user`, built on first use: a gate whose
 * context needs neither an auth-provider nor a proxy never loads client-node.
 */
function clientNodeConfig(cluster: Cluster, user: User): () => Promise<KubeConfig> {
  let config: Promise<KubeConfig> | undefined
  return () =>
    (config ??= import('./client-node.ts').then(({ KubeConfig }) => {
      const own = new KubeConfig()
      own.loadFromClusterAndUser(cluster, user)
      return own
    }))
}

/**
 * client-node's agent for a proxy-url, through its public API: a KubeConfig of this cluster's
 * server and proxy, whose applyToHTTPSOptions builds the agent from the TLS material already on the
 * options (and keeps it: one agent, so one connection pool, for the run).
 */
function proxyAgent(cluster: KubeCluster, user: KubeUser): Source {
  const { name, server, proxyUrl, skipTLSVerify } = cluster
  const own = clientNodeConfig({ name, server, proxyUrl, skipTLSVerify }, { name: user.name })
  return async (opts) => {
    const applied: Applied = { ...opts, headers: {} }
    await (await own()).applyToHTTPSOptions(applied)
    opts.agent = applied.agent
  }
}

/**
 * The plugin or provider that gives `loaded`'s user its credential, if any. client-go runs an exec
 * plugin only for a user with no token, username or client certificate of its own.
 */
function credentialSource(loaded: LoadedKubeConfig, cluster: string): Source | undefined {
  const { user } = loaded
  const provider = user.authProvider as
    { name?: unknown; config?: Record<string, unknown> } | undefined
  const exec = hasOwnCredentials(user) ? undefined : user.exec
  if (exec)
    return commandSource(
      new ExecPlugin(exec, { cluster: execCluster(loaded) }),
      `the kubeconfig user "${user.name}"'s exec credential plugin "${commandName(exec.command)}"`,
      cluster
    )
  if (!provider) return undefined
  const name = typeof provider.name === 'string' ? provider.name : 'unknown'
  const what = `the kubeconfig user "${user.name}"'s auth-provider "${name}"`
  // client-node's own authenticator for the provider, on a KubeConfig that holds only this user
  const own = clientNodeConfig(
    { name: 'credentials', server: 'https://credentials.invalid', skipTLSVerify: false },
    { name: user.name, authProvider: user.authProvider }
  )
  return async (opts) => {
    const applied: Applied = { headers: {} }
    try {
      await (await own()).applyToHTTPSOptions(applied)
    } catch {
      // a provider's error (oidc's refresh answer) can quote its credentials
      throw new ClusterError(
        `Could not get credentials for ${cluster}: ${what} failed (its message is not shown: it may hold a credential)`
      )
    }
    const authorization = applied.headers.Authorization
    if (typeof authorization === 'string') opts.headers.Authorization = authorization
  }
}

/**
 * client-go's ExecCredential spec.cluster, for a plugin whose entry sets provideClusterInfo: the
 * server as written, the CA's bytes (from its file too), the cluster's exec extension.
 */
function execCluster({ cluster, user }: LoadedKubeConfig): ExecCluster | undefined {
  if (user.exec?.provideClusterInfo !== true) return undefined
  const ca = cluster.caFile
    ? readFileSync(cluster.caFile)
    : cluster.caData
      ? Buffer.from(cluster.caData, 'base64')
      : undefined
  const entries: [string, unknown][] = [
    ['server', cluster.server],
    ['tls-server-name', cluster.tlsServerName],
    ['insecure-skip-tls-verify', cluster.skipTLSVerify || undefined],
    ['certificate-authority-data', ca?.toString('base64')],
    ['proxy-url', cluster.proxyUrl],
    ['disable-compression', cluster.disableCompression || undefined],
    ['config', cluster.execExtension]
  ]
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined && value !== ''))
}

/** A command run by exec-plugin.ts: without the Action's inputs in its environment, its end known. */
function commandSource(plugin: CredentialCommand, what: string, cluster: string): Source {
  const stillRunning = (): string | undefined => {
    const taken = plugin.stillRunning()
    return taken === undefined ? undefined : `${what} did not finish within ${taken}; killed`
  }
  const source = async (opts: Applied, signal?: AbortSignal): Promise<void> => {
    let status
    try {
      status = await plugin.credential(signal)
    } catch (error) {
      const how = error instanceof PluginFailure ? error.message : 'failed'
      throw new ClusterError(`Could not get credentials for ${cluster}: ${what} ${how}`)
    }
    if (status.clientCertificateData) opts.cert = status.clientCertificateData
    if (status.clientKeyData) opts.key = status.clientKeyData
    if (status.token) opts.headers.Authorization = `Bearer ${status.token}`
  }
  return Object.assign(source, { stillRunning })
}

function commandName(command: unknown): string {
  return typeof command === 'string' ? path.basename(command) : 'unknown'
}
