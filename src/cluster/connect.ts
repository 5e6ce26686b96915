// The entry point of the cluster layer: a ClusterClient for the configured cluster and context.
import { KubeClusterClient } from './client.ts'
import { authenticationFor } from './credentials.ts'
import { Discovery } from './discovery.ts'
import { loadKubeConfig } from './kubeconfig.ts'
import { ApiRequester } from './request.ts'
import { rememberSecret } from './secrets.ts'
import { DEFAULT_TUNING, type ClusterTuning } from './session.ts'

export interface ConnectOptions {
  /** kubeconfig content (the action input), not a path */
  kubeconfig?: string
  context?: string
  env: NodeJS.ProcessEnv
  /** registers a secret with the log masker; called before anything could print it */
  mask: (secret: string) => void
  /** timeouts and retry bounds; the defaults suit a CI gate, tests shorten them */
  tuning?: Partial<ClusterTuning>
}

export function connect(options: ConnectOptions): Promise<KubeClusterClient> {
  // A bad kubeconfig must reject, not throw synchronously.
  return Promise.resolve().then(() => createClient(options))
}

/** The server as a dump records it: no user:password, query or fragment. */
export function publicServer(server: string): string {
  try {
    const url = new URL(server)
    url.username = ''
    url.password = ''
    url.search = ''
    url.hash = ''
    return url.toString().replace(/\/$/, '')
  } catch {
    return server.replace(/\/\/[^/?#]*@/, '//')
  }
}

async function createClient(given: ConnectOptions): Promise<KubeClusterClient> {
  const mask = (secret: string): void => {
    rememberSecret(secret)
    given.mask(secret)
  }
  const options = { ...given, mask }
  const loaded = await loadKubeConfig(options)
  const { server, contextName, defaultNamespace } = loaded
  // closing the client ends every request and every retry, so nothing keeps the process alive
  const closing = new AbortController()
  const base = { ...DEFAULT_TUNING, ...options.tuning }
  const tuning = { ...base, retry: { ...base.retry, signal: closing.signal } }
  const description = `${server} (context ${contextName})`
  const api = new ApiRequester(
    authenticationFor(loaded, description, options.mask),
    server,
    tuning.requestTimeoutMs,
    closing.signal,
    undefined,
    description
  )
  const discovery = new Discovery(api, tuning.retry, description)
  return new KubeClusterClient(
    {
      api,
      discovery,
      description,
      defaultNamespace,
      tuning,
      closing
    },
    { server: publicServer(server), context: contextName }
  )
}
