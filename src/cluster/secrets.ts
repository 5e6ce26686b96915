// Which kubeconfig values are credentials, for the log masker. Masking hides a string everywhere in
// the rest of the job's log, so only real credential values qualify: strings, from the fields that
// hold them, long enough not to be a common word. A YAML scalar like `true` or a `|` is never one.

/** Shorter strings would hide ordinary words all over the log; no real token is this short. */
export const MIN_SECRET_LENGTH = 6

// Every value handed to the masker in this process. GitHub's masker hides them in the Action's log
// only; route-gate's own messages hide them everywhere (the CLI's terminal, the report, the summary),
// as an API server's error body can echo the bearer token it was sent.
const remembered = new Set<string>()

/** Registers `secret` for `redactSecrets`; the masker is given it too (connect.ts). */
export function rememberSecret(secret: string): void {
  remembered.add(secret)
}

/** `text` with every remembered secret replaced by ***, the longest first (one may hold another). */
export function redactSecrets(text: string): string {
  let redacted = text
  for (const secret of [...remembered].sort((a, b) => b.length - a.length)) {
    redacted = redacted.split(secret).join('***')
  }
  return redacted
}

// Keys whose values are credentials, wherever they appear in a kubeconfig (user, auth-provider config).
const SECRET_KEYS = [
  'token',
  'password',
  'client-key-data',
  'id-token',
  'refresh-token',
  'access-token',
  'client-secret'
]
// Block style ("token: x" on its own line) and flow style ("{refresh-token: x, …}") alike. The value
// is greedy up to a delimiter and every quantifier is followed by a character it cannot match, so
// the scan is linear however the text is padded.
const SECRET_ENTRY = new RegExp(
  `(?:^|[\\s{,])(?:-[ \\t]+)?["']?(?:${SECRET_KEYS.join('|')})["']?[ \\t]*:[ \\t]*("[^"\\n]*"|'[^'\\n]*'|[^\\s,}\\]#|>\\[{&*!][^,}\\]\\n]*)`,
  'gm'
)
const YAML_WORDS = /^(?:true|false|yes|no|on|off|null|~)$/i
// Environment variables of an exec plugin that carry credentials (most carry settings: AWS_PROFILE).
const SECRET_ENV_NAME = /token|secret|passw|key|credential|auth|session/i
const SECRET_CONFIG_KEY = /token|secret|password/i

function maskString(value: unknown, mask: (secret: string) => void): void {
  if (typeof value !== 'string') return
  const trimmed = value.trim()
  if (trimmed.length >= MIN_SECRET_LENGTH && !YAML_WORDS.test(trimmed)) mask(trimmed)
}

/**
 * For a kubeconfig that does not parse (its error could quote a line): the values of credential keys
 * as written. Quoted values lose their quotes; a plain value ends before a comment.
 */
export function maskRawSecrets(content: string, mask: (secret: string) => void): void {
  for (const match of content.matchAll(SECRET_ENTRY)) {
    const raw = match[1] ?? ''
    const quoted = /^(["']).*\1$/.test(raw)
    const comment = raw.indexOf(' #')
    maskString(quoted ? raw.slice(1, -1) : comment >= 0 ? raw.slice(0, comment) : raw, mask)
  }
}

/** The credentials of parsed users: each one's `user` mapping, as the YAML has it. */
export function maskUsers(users: Record<string, unknown>[], mask: (secret: string) => void): void {
  for (const user of users) {
    maskString(user.token, mask)
    maskString(user.password, mask)
    const keyData = user['client-key-data']
    if (typeof keyData === 'string') {
      maskString(keyData, mask)
      maskString(Buffer.from(keyData, 'base64').toString('utf8'), mask)
    }
    const env: unknown = (user.exec as { env?: unknown } | undefined)?.env
    if (Array.isArray(env)) {
      for (const entry of env as { name?: unknown; value?: unknown }[]) {
        if (typeof entry.name === 'string' && SECRET_ENV_NAME.test(entry.name)) {
          maskString(entry.value, mask)
        }
      }
    }
    const config: unknown = (user['auth-provider'] as { config?: unknown } | undefined)?.config
    if (typeof config === 'object' && config !== null) {
      for (const [key, value] of Object.entries(config)) {
        if (SECRET_CONFIG_KEY.test(key)) maskString(value, mask)
      }
    }
  }
}

// The authority part of a URL in text: its userinfo ends at the last `@` before the host (the WHATWG
// URL parser's reading, and client-node's), so a password may hold an `@` of its own.
const USERINFO = /:\/\/([^/?#\s]*)@/g

/** A URL's userinfo as written and its password, as written and decoded, where it has them. */
function userinfoOf(url: string): string[] {
  try {
    const parsed = new URL(url)
    if (parsed.username === '' && parsed.password === '') return []
    const written = new RegExp(USERINFO.source).exec(url)?.[1]
    const decoded = (() => {
      try {
        return decodeURIComponent(parsed.password)
      } catch {
        return parsed.password
      }
    })()
    return [written ?? '', parsed.password, decoded]
  } catch {
    // not a URL the parser takes: the same rule by hand
    const written = new RegExp(USERINFO.source).exec(url)?.[1] ?? ''
    return [written, written.slice(written.indexOf(':') + 1)]
  }
}

/**
 * The password (and user:password) in `server` and `proxy-url`, which may carry them: each cluster's
 * `cluster` mapping, as the YAML has it. The password both percent-encoded and decoded: either form
 * can reach a message.
 */
export function maskClusterUserinfo(
  clusters: Record<string, unknown>[],
  mask: (secret: string) => void
): void {
  for (const cluster of clusters) {
    for (const url of [cluster.server, cluster['proxy-url']]) {
      if (typeof url !== 'string') continue
      for (const secret of new Set(userinfoOf(url))) maskString(secret, mask)
    }
  }
}

/** A URL, or a message quoting URLs, as shown to people: without `user:password@`. */
export function withoutUserinfo(text: string): string {
  return text.replace(USERINFO, '://')
}
