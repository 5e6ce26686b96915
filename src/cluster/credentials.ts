// A kubeconfig user can get its credentials by running a command: an exec plugin, or the gcp and azure
// auth-providers' cmd-path. Such a command runs with the step's environment and can print anything;
// its failure is reported as what failed and how it ended, never its output (a plugin's stderr can
// echo a secret) or its arguments (client secrets go there), and every token it returns is masked
// before any request carries it.
import path from 'node:path'
import type { ChildProcess } from 'node:child_process'
import type { KubeConfig, User } from '@kubernetes/client-node'
import { ClusterError } from '../errors.ts'
import { MIN_SECRET_LENGTH } from './secrets.ts'

type Spawn = (command: string, args: string[], options: object) => ChildProcess

interface HeaderOptions {
  headers?: Record<string, string>
}

/** The parts of client-node's KubeConfig and ExecAuth this module reaches into (not public API). */
interface Internals {
  authenticators?: unknown[]
  applyAuthorizationHeader(opts: HeaderOptions): Promise<void>
}

interface Ending {
  code: number | null
  signal: NodeJS.Signals | null
}

/** Wraps the KubeConfig's authentication: failures become safe ClusterErrors, tokens get masked. */
export function guardCredentials(
  kubeConfig: KubeConfig,
  /** the cluster as messages name it */
  cluster: string,
  mask: (secret: string) => void
): void {
  const internals = kubeConfig as unknown as Internals
  let lastEnding: Ending | undefined
  for (const authenticator of internals.authenticators ?? []) {
    const exec = authenticator as { execFn?: Spawn }
    if (typeof exec.execFn !== 'function') continue
    const spawn = exec.execFn
    exec.execFn = (command, args, options: { env?: NodeJS.ProcessEnv }) => {
      lastEnding = undefined
      const child = spawn(command, args, { ...options, env: withoutInputs(options.env) })
      // registered before client-node's own listener, so the ending is known when it rejects
      child.on('close', (code, signal) => (lastEnding = { code, signal }))
      return child
    }
  }
  const masked = new Set<string>()
  const apply = internals.applyAuthorizationHeader.bind(kubeConfig)
  internals.applyAuthorizationHeader = async (opts) => {
    try {
      await apply(opts)
    } catch (error) {
      throw credentialError(cluster, kubeConfig.getCurrentUser(), error, lastEnding)
    }
    const token = /^Bearer\s+(\S+)$/i.exec(opts.headers?.Authorization ?? '')?.[1]
    if (token !== undefined && token.length >= MIN_SECRET_LENGTH && !masked.has(token)) {
      masked.add(token)
      mask(token)
    }
  }
}

/**
 * The plugin's environment without the Action's inputs (INPUT_*: github-token, the kubeconfig
 * itself), which no credential plugin needs. Everything else stays: plugins read their own settings.
 */
function withoutInputs(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('INPUT_')))
}

function credentialError(
  cluster: string,
  user: User | null,
  error: unknown,
  ending: Ending | undefined
): Error {
  const who = `the kubeconfig user "${user?.name ?? ''}"`
  const exec = user?.exec as { command?: unknown } | undefined
  const provider = user?.authProvider as { name?: unknown } | undefined
  const what =
    exec !== undefined
      ? `${who}'s exec credential plugin "${commandName(exec.command)}"`
      : `${who}'s auth-provider "${typeof provider?.name === 'string' ? provider.name : 'unknown'}"`
  return new ClusterError(
    `Could not get credentials for ${cluster}: ${what} ${howItFailed(error, ending)}`
  )
}

function commandName(command: unknown): string {
  return typeof command === 'string' ? path.basename(command) : 'unknown'
}

function howItFailed(error: unknown, ending: Ending | undefined): string {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && code.startsWith('E')) return `could not be started (${code})`
  if (ending?.signal) return `was ended by signal ${ending.signal}`
  if (ending?.code !== undefined && ending.code !== null && ending.code !== 0) {
    return `failed (exit code ${ending.code}); run it by hand to see its message`
  }
  if (ending?.code === 0) return 'exited 0 but printed no valid ExecCredential JSON'
  // the gcp and azure providers run cmd-path synchronously: the exit status is on the cause
  const status = ((error as { cause?: { status?: unknown } } | null)?.cause ?? {}).status
  if (typeof status === 'number') {
    return `failed (exit code ${status}); run it by hand to see its message`
  }
  return 'failed (its message is not shown: it may hold a credential)'
}
