// A kubeconfig user's exec credential plugin, run by route-gate itself rather than by client-node's
// ExecAuth (whose spawn and environment are private): the plugin runs without the Action's inputs and
// the runner's tokens in its environment, non-interactively, with its stderr discarded (it can echo a
// secret), killed if it outlasts the request that needs it, and how it ended (exit code, signal,
// could not start, killed) is known for the message. What it prints is read as an
// ExecCredential (client.authentication.k8s.io/v1 or v1beta1) and reused until its
// expirationTimestamp.
import { spawn } from 'node:child_process'

/** The `exec` entry of a kubeconfig user, as client-node keeps it (the YAML keys). */
export interface ExecConfig {
  command?: unknown
  args?: unknown
  env?: unknown
  apiVersion?: unknown
  interactiveMode?: unknown
  provideClusterInfo?: unknown
}

/**
 * The cluster a plugin is told of when its kubeconfig entry sets provideClusterInfo:
 * client.authentication.k8s.io's Cluster, under its JSON names.
 */
export type ExecCluster = Record<string, unknown>

export interface ExecCredentialStatus {
  token?: string
  clientCertificateData?: string
  clientKeyData?: string
}

export const EXEC_CREDENTIAL_VERSIONS = [
  'client.authentication.k8s.io/v1',
  'client.authentication.k8s.io/v1beta1'
]

/** An ExecCredential is a token or a certificate and key: anything near this long is no credential. */
export const MAX_PLUGIN_OUTPUT_BYTES = 1024 * 1024

/** How a plugin run failed, said without its output or arguments. */
export class PluginFailure extends Error {
  override name = 'PluginFailure'
}

export interface Cached {
  status: ExecCredentialStatus
  /** ms since the epoch; undefined: valid for the whole run */
  expiresAt?: number
}

// The runner's credentials for its own services (artifacts, caches, OIDC tokens): no cluster's.
const RUNNER_SECRETS = new Set([
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_URL',
  'ACTIONS_CACHE_URL',
  'ACTIONS_RESULTS_URL'
])

/**
 * The plugin's environment: the step's, without the Action's inputs (INPUT_*: github-token, the
 * kubeconfig itself) and the runner's tokens, which no credential plugin needs, plus the kubeconfig's `env` entries and
 * KUBERNETES_EXEC_INFO (what client-go sets: the API version to answer in, not interactive).
 */
export function pluginEnvironment(
  exec: ExecConfig,
  base: NodeJS.ProcessEnv = process.env,
  cluster?: ExecCluster
): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(base).filter(([name]) => !name.startsWith('INPUT_') && !RUNNER_SECRETS.has(name))
  )
  for (const entry of Array.isArray(exec.env) ? (exec.env as unknown[]) : []) {
    const { name, value } = (entry ?? {}) as { name?: unknown; value?: unknown }
    if (typeof name === 'string' && name !== '') env[name] = typeof value === 'string' ? value : ''
  }
  if (typeof exec.apiVersion === 'string' && EXEC_CREDENTIAL_VERSIONS.includes(exec.apiVersion)) {
    env.KUBERNETES_EXEC_INFO = JSON.stringify({
      kind: 'ExecCredential',
      apiVersion: exec.apiVersion,
      spec: { ...(cluster === undefined ? {} : { cluster }), interactive: false }
    })
  }
  return env
}

/**
 * The credential in a plugin's output, or undefined when it is no valid ExecCredential: JSON of kind
 * ExecCredential in a known version, with a token or a client certificate and key.
 */
export function parseExecCredential(output: string): Cached | undefined {
  let value: unknown
  try {
    value = JSON.parse(output)
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  const { apiVersion, kind, status } = value as Record<string, unknown>
  if (kind !== 'ExecCredential' || !EXEC_CREDENTIAL_VERSIONS.includes(String(apiVersion))) {
    return undefined
  }
  if (typeof status !== 'object' || status === null) return undefined
  const fields = status as Record<string, unknown>
  const text = (name: string): string | undefined => {
    const field = fields[name]
    return typeof field === 'string' && field !== '' ? field : undefined
  }
  const token = text('token')
  const clientCertificateData = text('clientCertificateData')
  const clientKeyData = text('clientKeyData')
  if (token === undefined && (clientCertificateData === undefined || clientKeyData === undefined)) {
    return undefined
  }
  const expiration = text('expirationTimestamp')
  const expiresAt = expiration === undefined ? undefined : Date.parse(expiration)
  if (expiresAt !== undefined && Number.isNaN(expiresAt)) return undefined
  return {
    status: {
      ...(token === undefined ? {} : { token }),
      ...(clientCertificateData === undefined ? {} : { clientCertificateData }),
      ...(clientKeyData === undefined ? {} : { clientKeyData })
    },
    ...(expiresAt === undefined ? {} : { expiresAt })
  }
}

/** "3s": how long a plugin ran, as its message says it. */
export function secondsSince(startedAt: number, now: number): string {
  return `${Math.max(1, Math.round((now - startedAt) / 1000))}s`
}

export interface CommandOptions {
  env: NodeJS.ProcessEnv
  maxOutputBytes: number
  /** aborted: the command, if still running, is killed */
  signal?: AbortSignal
}

/**
 * Runs a credential command once, its stderr discarded: what it printed, once it exited 0. Rejects
 * with a PluginFailure that quotes nothing it printed or was given. Once `signal` aborts (the
 * request's timeout, the run's end) a command still running is killed.
 */
export function runCredentialCommand(
  command: string,
  args: string[],
  options: CommandOptions
): Promise<string> {
  const { signal, maxOutputBytes } = options
  return new Promise((resolve, reject) => {
    let settled = false
    const startedAt = Date.now()
    const settle = (outcome: string | PluginFailure): void => {
      if (settled) return
      settled = true
      signal?.removeEventListener('abort', onAbort)
      process.removeListener('exit', killAtExit)
      if (outcome instanceof PluginFailure) reject(outcome)
      else resolve(outcome)
    }
    const child = spawn(command, args, {
      env: options.env,
      stdio: ['ignore', 'pipe', 'ignore'],
      windowsHide: true
    })
    // the run can end (process.exit) before the client closes: no plugin outlives route-gate
    function killAtExit(): void {
      child.kill('SIGKILL')
    }
    process.once('exit', killAtExit)
    function onAbort(): void {
      killAtExit()
      settle(
        new PluginFailure(`did not finish within ${secondsSince(startedAt, Date.now())}; killed`)
      )
    }
    if (signal?.aborted) onAbort()
    else signal?.addEventListener('abort', onAbort, { once: true })
    const chunks: Buffer[] = []
    let bytes = 0
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes <= maxOutputBytes) {
        chunks.push(chunk)
        return
      }
      // at once: a process the plugin started may hold the pipe open after the plugin is gone
      child.stdout.destroy()
      child.kill('SIGKILL')
      settle(
        new PluginFailure(`printed more than ${maxOutputBytes} bytes, which no ExecCredential is`)
      )
    })
    child.on('error', (error: NodeJS.ErrnoException) => {
      const code = typeof error.code === 'string' ? ` (${error.code})` : ''
      settle(new PluginFailure(`could not be started${code}`))
    })
    child.on('close', (code, ended) => {
      if (ended !== null) settle(new PluginFailure(`was ended by signal ${ended}`))
      else if (code !== 0)
        settle(new PluginFailure(`failed (exit code ${code}); run it by hand to see its message`))
      else settle(Buffer.concat(chunks).toString('utf8'))
    })
  })
}

/** Runs the plugin once and reads its ExecCredential; rejects with a PluginFailure. */
async function runOnce(exec: ExecConfig, options: CommandOptions): Promise<Cached> {
  if (typeof exec.command !== 'string' || exec.command === '') {
    throw new PluginFailure('names no command')
  }
  const args = Array.isArray(exec.args) ? (exec.args as unknown[]).map(String) : []
  const credential = parseExecCredential(await runCredentialCommand(exec.command, args, options))
  if (credential === undefined) {
    throw new PluginFailure('exited 0 but printed no valid ExecCredential JSON')
  }
  return credential
}

/**
 * A credential a command gives: run when a request needs one and none is held or the held one has
 * expired; requests that need one while it runs share that run.
 */
export class CredentialCommand {
  private running: Promise<Cached> | undefined
  /** when the run in progress started; undefined: none is */
  private runningSince: number | undefined

  constructor(
    private readonly run: (signal?: AbortSignal) => Promise<Cached>,
    private readonly now: () => number = Date.now,
    /** a credential already held (an auth-provider's access-token) */
    private cached?: Cached
  ) {}

  /** How long the run in progress has taken ("12s"), or undefined when none is running. */
  stillRunning(): string | undefined {
    return this.runningSince === undefined ? undefined : secondsSince(this.runningSince, this.now())
  }

  /** The credential; a run this starts is killed once `signal` aborts. */
  async credential(signal?: AbortSignal): Promise<ExecCredentialStatus> {
    const cached = this.cached
    if (cached !== undefined && (cached.expiresAt === undefined || cached.expiresAt > this.now())) {
      return cached.status
    }
    this.cached = undefined
    if (this.running === undefined) {
      this.runningSince = this.now()
      this.running = this.run(signal).finally(() => {
        this.running = undefined
        this.runningSince = undefined
      })
    }
    const fresh = await this.running
    this.cached = fresh
    return fresh.status
  }
}

export interface ExecPluginOptions {
  env?: NodeJS.ProcessEnv
  maxOutputBytes?: number
  now?: () => number
  /** told to the plugin (provideClusterInfo) */
  cluster?: ExecCluster
}

/** One kubeconfig user's exec plugin. */
export class ExecPlugin extends CredentialCommand {
  constructor(exec: ExecConfig, options: ExecPluginOptions = {}) {
    const { maxOutputBytes = MAX_PLUGIN_OUTPUT_BYTES, now = Date.now } = options
    const env = pluginEnvironment(exec, options.env ?? process.env, options.cluster)
    super((signal) => runOnce(exec, { env, maxOutputBytes, signal }), now)
  }
}
