// A kubeconfig user can get its credentials by running a command: an exec plugin, or the gcp and azure
// auth-providers' cmd-path. Such a command can print anything; its failure is reported as what failed
// and how it ended, never its output (a plugin's stderr can echo a secret) or its arguments (client
// secrets go there), and every token it returns is masked before any request carries it.
//
// Only client-node's public API is used. Every user with an exec plugin or an auth-provider is
// replaced in the KubeConfig's public `users` by a copy without them, which none of client-node's
// built-in authenticators claims; one authenticator registered with the public `addAuthenticator`
// claims those copies instead. It runs exec plugins itself (exec-plugin.ts: without the Action's
// inputs in the environment, knowing how the plugin ended) and hands auth-providers to client-node on
// a KubeConfig of their own through the public `applyToHTTPSOptions`.
import path from 'node:path'
import { KubeConfig, type User } from '@kubernetes/client-node'
import { ClusterError } from '../errors.ts'
import { ExecPlugin, PluginFailure, type ExecConfig } from './exec-plugin.ts'
import { MIN_SECRET_LENGTH } from './secrets.ts'

/** client-node's Authenticator (not exported by name), as its public addAuthenticator takes it. */
type Authenticator = Parameters<KubeConfig['addAuthenticator']>[0]
type AuthOptions = Parameters<Authenticator['applyAuthentication']>[1]

interface AuthFields {
  headers?: Record<string, unknown>
  cert?: unknown
  key?: unknown
}

/** Puts the user's credential on `opts`; throws the ClusterError to report. */
type Source = (opts: AuthFields) => Promise<void>

/** Wraps the KubeConfig's authentication: failures become safe ClusterErrors, tokens get masked. */
export function guardCredentials(
  kubeConfig: KubeConfig,
  /** the cluster as messages name it */
  cluster: string,
  mask: (secret: string) => void
): void {
  const sources = new Map<User, Source>()
  kubeConfig.users = kubeConfig.users.map((user) => {
    const source = credentialSource(user, cluster)
    if (source === undefined) return user
    const stripped: User = { ...user, exec: undefined, authProvider: undefined }
    sources.set(stripped, source)
    return stripped
  })
  if (sources.size === 0) return
  const masked = new Set<string>()
  kubeConfig.addAuthenticator({
    isAuthProvider: (user: User) => sources.has(user),
    applyAuthentication: async (user: User, opts: AuthOptions) => {
      const fields = opts as AuthFields
      await sources.get(user)?.(fields)
      const authorization = fields.headers?.Authorization
      const token =
        typeof authorization === 'string' ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined
      if (token !== undefined && token.length >= MIN_SECRET_LENGTH && !masked.has(token)) {
        masked.add(token)
        mask(token)
      }
    }
  })
}

function credentialSource(user: User, cluster: string): Source | undefined {
  const provider = user.authProvider as
    { name?: unknown; config?: { exec?: ExecConfig } } | undefined
  // client-node's ExecAuth also takes an exec entry inside an auth-provider's config
  const exec = (user.exec as ExecConfig | undefined) ?? provider?.config?.exec
  if (exec) {
    const plugin = new ExecPlugin(exec)
    const what = `the kubeconfig user "${user.name}"'s exec credential plugin "${commandName(exec.command)}"`
    return async (opts) => {
      let status
      try {
        status = await plugin.credential()
      } catch (error) {
        const how = error instanceof PluginFailure ? error.message : 'failed'
        throw new ClusterError(`Could not get credentials for ${cluster}: ${what} ${how}`)
      }
      if (status.clientCertificateData) opts.cert = status.clientCertificateData
      if (status.clientKeyData) opts.key = status.clientKeyData
      if (status.token) (opts.headers ??= {}).Authorization = `Bearer ${status.token}`
    }
  }
  if (!provider) return undefined
  const name = typeof provider.name === 'string' ? provider.name : 'unknown'
  // client-node's own authenticator for the provider, on a KubeConfig that holds only this user
  const own = new KubeConfig()
  own.loadFromClusterAndUser(
    { name: 'credentials', server: 'https://credentials.invalid', skipTLSVerify: false },
    { name: user.name, authProvider: user.authProvider as unknown }
  )
  const what = `the kubeconfig user "${user.name}"'s auth-provider "${name}"`
  return async (opts) => {
    const applied: AuthFields = {}
    try {
      await own.applyToHTTPSOptions(applied)
    } catch (error) {
      throw new ClusterError(
        `Could not get credentials for ${cluster}: ${what} ${howItFailed(error)}`
      )
    }
    const authorization = applied.headers?.Authorization
    if (typeof authorization === 'string') (opts.headers ??= {}).Authorization = authorization
  }
}

function commandName(command: unknown): string {
  return typeof command === 'string' ? path.basename(command) : 'unknown'
}

function howItFailed(error: unknown): string {
  // the gcp and azure providers run cmd-path synchronously: the exit status is on the cause
  const status = ((error as { cause?: { status?: unknown } } | null)?.cause ?? {}).status
  if (typeof status === 'number') {
    return `failed (exit code ${status}); run it by hand to see its message`
  }
  return 'failed (its message is not shown: it may hold a credential)'
}
