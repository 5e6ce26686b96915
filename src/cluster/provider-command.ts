// The gcp and azure auth-providers' cmd-path, run by route-gate itself: client-node runs it with
// execSync, whose stderr is the process's own, so what the command says there (it can echo a secret)
// reached the log. Here it runs as exec plugins do (exec-plugin.ts): its stderr discarded, without
// the Action's inputs and the runner's tokens, killed when the request that needs it ends. What it
// does is client-node's: cmd-path quoted and cmd-args appended, run by the shell; the token and
// expiry read from its JSON output at token-key and expiry-key ("{.credential.access_token}"); a
// config's access-token used until its expiry (or azure's expires-on) has passed.
import {
  CredentialCommand,
  MAX_PLUGIN_OUTPUT_BYTES,
  PluginFailure,
  pluginEnvironment,
  runCredentialCommand,
  type Cached
} from './exec-plugin.ts'

/** The auth-providers whose cmd-path client-node runs. */
export const COMMAND_PROVIDERS = new Set(['gcp', 'azure'])

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined

/** The value at a kubectl JSONPath of plain field names, "{.credential.access_token}". */
function valueAt(json: unknown, key: string): unknown {
  const names = /^\{\.([\w-]+(?:\.[\w-]+)*)\}$/.exec(key.trim())?.[1]?.split('.')
  if (names === undefined)
    throw new PluginFailure(`has a token-key or expiry-key route-gate cannot read`)
  let value = json
  for (const name of names) {
    value =
      typeof value === 'object' && value !== null
        ? (value as Record<string, unknown>)[name]
        : undefined
  }
  return value
}

/** ms since the epoch from an expiry (RFC 3339) or azure's expires-on (seconds); undefined: none. */
function expiryOf(expiry: unknown, expiresOn?: unknown): number | undefined {
  if (text(expiry) !== undefined) return Date.parse(String(expiry))
  const seconds = Number(expiresOn)
  return text(expiresOn) !== undefined && Number.isFinite(seconds) ? seconds * 1000 : undefined
}

function readOutput(output: string, config: Record<string, unknown>): Cached {
  let json: unknown
  try {
    json = JSON.parse(output)
  } catch {
    throw new PluginFailure('exited 0 but printed no JSON')
  }
  const token = text(valueAt(json, text(config['token-key']) ?? ''))
  if (token === undefined) throw new PluginFailure('printed no token at its token-key')
  const expiryKey = text(config['expiry-key'])
  const expiresAt = expiryKey === undefined ? undefined : expiryOf(valueAt(json, expiryKey))
  return { status: { token }, ...(expiresAt === undefined ? {} : { expiresAt }) }
}

/** An auth-provider's `config` with a cmd-path: its token, the command run when it has expired. */
export function providerCommand(
  config: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env
): CredentialCommand {
  const command = `"${String(config['cmd-path'])}"${text(config['cmd-args']) === undefined ? '' : ` ${String(config['cmd-args'])}`}`
  const held = text(config['access-token'])
  const heldUntil = expiryOf(config.expiry, config['expires-on'])
  return new CredentialCommand(
    async (signal) =>
      readOutput(
        await runCredentialCommand(command, [], {
          env: pluginEnvironment({}, env),
          maxOutputBytes: MAX_PLUGIN_OUTPUT_BYTES,
          signal,
          shell: true
        }),
        config
      ),
    Date.now,
    held === undefined
      ? undefined
      : { status: { token: held }, ...(heldUntil === undefined ? {} : { expiresAt: heldUntil }) }
  )
}
