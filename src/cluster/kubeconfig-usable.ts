// kubectl's checks of the context it is about to use (clientcmd's ConfirmUsable, validateAuthInfo,
// validateClusterInfo, and the transport's own refusals), so a kubeconfig kubectl refuses is refused
// here too, in kubectl's terms, before any request. Where kubectl would fall back to something a
// gate must not (http://localhost:8080 for a missing cluster, a terminal prompt for a missing user),
// the kubeconfig is refused and the message says what kubectl would have done.
import { EXEC_CREDENTIAL_VERSIONS } from './exec-plugin.ts'
import type { KubeCluster, KubeContext, KubeUser } from './kubeconfig-text.ts'

/** True when requests to `server` use TLS: client-go sends credentials only then. */
export function usesTls(server: string): boolean {
  return /^https:\/\//i.test(server)
}

const INTERACTIVE_MODES = ['Never', 'IfAvailable', 'Always']
// a Kubernetes version that defaults interactiveMode keeps it unset in older API versions
const DEFAULTS_INTERACTIVE = new Set(['client.authentication.k8s.io/v1beta1'])

/** What kubectl's transport says of `user`'s credentials: nothing when it is usable. */
function userProblems(user: KubeUser): string[] {
  const u = `user "${user.name}"`
  const problems: string[] = []
  const basic = user.username !== undefined || user.password !== undefined
  if (user.token !== undefined && basic) {
    problems.push(
      `${u} gives both a token and a username/password: kubectl allows one authentication method`
    )
  }
  if (user.certFile !== undefined || user.certData !== undefined) {
    if (user.certFile !== undefined && user.certData !== undefined)
      problems.push(`${u} gives both client-certificate and client-certificate-data`)
    if (user.keyFile !== undefined && user.keyData !== undefined)
      problems.push(`${u} gives both client-key and client-key-data`)
    if (user.keyFile === undefined && user.keyData === undefined)
      problems.push(`${u} gives a client certificate without client-key or client-key-data`)
  }
  if (user.exec !== undefined) problems.push(...execProblems(user))
  const extras = user.impersonateUid ?? user.impersonateGroups ?? user.impersonateExtra
  if (extras !== undefined && user.impersonate === undefined) {
    problems.push(
      `${u} asks for as-uid, as-groups or as-user-extra without "as", the user to act as`
    )
  }
  return problems
}

function execProblems(user: KubeUser): string[] {
  const u = `user "${user.name}"`
  const exec = user.exec ?? {}
  const problems: string[] = []
  if (user.authProvider !== undefined) problems.push(`${u} gives both exec and auth-provider`)
  if (typeof exec.command !== 'string' || exec.command === '')
    problems.push(`${u}'s exec plugin has no command`)
  const version = typeof exec.apiVersion === 'string' ? exec.apiVersion : ''
  if (!EXEC_CREDENTIAL_VERSIONS.includes(version)) {
    problems.push(
      `${u}'s exec plugin apiVersion is ${version === '' ? 'missing' : `"${version}"`}: kubectl takes ${EXEC_CREDENTIAL_VERSIONS.join(' or ')}`
    )
  }
  const env = Array.isArray(exec.env) ? (exec.env as { name?: unknown }[]) : []
  if (env.some((entry) => typeof entry.name !== 'string' || entry.name === ''))
    problems.push(`${u}'s exec plugin has an env entry without a name`)
  const mode = typeof exec.interactiveMode === 'string' ? exec.interactiveMode : ''
  if (mode === '' && !DEFAULTS_INTERACTIVE.has(version)) {
    problems.push(`${u}'s exec plugin has no interactiveMode, which kubectl requires of ${version}`)
  } else if (mode !== '' && !INTERACTIVE_MODES.includes(mode)) {
    problems.push(
      `${u}'s exec plugin interactiveMode "${mode}" is none of ${INTERACTIVE_MODES.join(', ')}`
    )
  } else if (mode === 'Always') {
    problems.push(
      `${u}'s exec plugin asks for a terminal (interactiveMode Always), which a gate has not`
    )
  }
  return problems
}

function clusterProblems(cluster: KubeCluster): string[] {
  const c = `cluster "${cluster.name}"`
  const problems: string[] = []
  if (cluster.server === '') problems.push(`${c} has no server`)
  if (cluster.proxyUrl !== undefined && !/^(?:https?|socks5):\/\/[^/]/i.test(cluster.proxyUrl)) {
    problems.push(`${c}'s proxy-url is no http, https or socks5 URL`)
  }
  if (cluster.caFile !== undefined && cluster.caData !== undefined)
    problems.push(`${c} gives both certificate-authority and certificate-authority-data`)
  const ca = cluster.caFile !== undefined || cluster.caData !== undefined
  if (ca && cluster.skipTLSVerify && usesTls(cluster.server)) {
    problems.push(
      `${c} gives a certificate authority and insecure-skip-tls-verify: kubectl allows one`
    )
  }
  return problems
}

// what kubectl says of the auth-providers client-go removed (v1.26)
const REMOVED_PROVIDERS: Record<string, string> = {
  gcp: 'the gke-gcloud-auth-plugin exec credential plugin',
  azure: 'the kubelogin exec credential plugin (github.com/Azure/kubelogin)'
}

/** client-go's auth-providers, built for an https:// server: oidc is the one left. */
function providerProblems(user: KubeUser): string[] {
  const provider = user.authProvider
  if (provider === undefined) return []
  const name = typeof provider.name === 'string' ? provider.name : ''
  const at = `user "${user.name}"'s auth-provider "${name}"`
  const replacement = REMOVED_PROVIDERS[name]
  if (replacement !== undefined)
    return [`${at} was removed from kubectl, which refuses it: use ${replacement} instead`]
  if (name !== 'oidc') return [`${at} is none kubectl has (only oidc)`]
  const config = (provider.config ?? {}) as Record<string, unknown>
  return ['idp-issuer-url', 'client-id']
    .filter((key) => typeof config[key] !== 'string' || config[key] === '')
    .map((key) => `${at} has no ${key}, which kubectl requires`)
}

/**
 * client-go's HasTokenAuth, HasBasicAuth and HasCertAuth: a user with any of them never runs its
 * exec plugin.
 */
export function hasOwnCredentials(user: KubeUser): boolean {
  const cert = (user.certFile ?? user.certData) !== undefined
  const key = (user.keyFile ?? user.keyData) !== undefined
  return (
    user.token !== undefined ||
    user.tokenFile !== undefined ||
    user.username !== undefined ||
    (cert && key)
  )
}

/**
 * client-go's canIdentifyUser: without one of these kubectl prompts for a username and password (a
 * password alone identifies no one).
 */
export function identifies(user: KubeUser): boolean {
  const { token, tokenFile, username, certFile, certData, exec, authProvider } = user
  return [token, tokenFile, username, certFile, certData, exec, authProvider].some(
    (value) => value !== undefined
  )
}

/**
 * The problems kubectl would report for `context`, with its cluster and user as the kubeconfig
 * defines them (undefined: not defined), in one line; undefined when it is usable.
 */
export function unusable(
  context: KubeContext,
  cluster: KubeCluster | undefined,
  user: KubeUser | undefined
): string | undefined {
  const where = `context "${context.name}"`
  if (cluster === undefined) {
    return context.cluster === undefined
      ? `${where} names no cluster: kubectl would try http://localhost:8080`
      : `${where} names cluster "${context.cluster}", which the kubeconfig does not define: kubectl would try http://localhost:8080`
  }
  const problems = clusterProblems(cluster)
  if (usesTls(cluster.server)) {
    if (context.user !== undefined && user === undefined) {
      problems.push(
        `${where} names user "${context.user}", which the kubeconfig does not define: kubectl would prompt for a username and password`
      )
    } else if (user === undefined || !identifies(user)) {
      problems.push(`${where} has no credentials: kubectl would prompt for a username and password`)
    }
  }
  if (user !== undefined) problems.push(...userProblems(user))
  // the provider is built after the checks, and only for TLS
  if (user !== undefined && usesTls(cluster.server)) problems.push(...providerProblems(user))
  return problems.length === 0 ? undefined : problems.join('; ')
}
