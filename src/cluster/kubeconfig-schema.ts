// clientcmd's v1 Config as data, and the one decoding kubectl gives a kubeconfig: its YAML turned to
// JSON, then Go's encoding/json into these types. A value of the wrong type anywhere in the file
// (`password: 0123`, which YAML 1.1 reads as the number 83; `insecure-skip-tls-verify: "true"`)
// fails the whole file, as kubectl's "cannot unmarshal" does; an unknown key is ignored, and key
// names are case-sensitive. Presence is not checked here: kubectl checks only the context it uses
// (kubeconfig-usable.ts).

/** What is wrong with the file's structure, for the reader to prefix with the file. */
export class Problem extends Error {}

type Kind =
  | 'string'
  | 'bool'
  /** []byte: a base64 string, as encoding/json takes it */
  | 'bytes'
  | 'strings'
  /** runtime.RawExtension: any JSON value */
  | 'raw'
  | { map: Kind }
  | { list: Kind }
  | { fields: Record<string, Kind> }

const CLUSTER: Kind = {
  fields: {
    server: 'string',
    'tls-server-name': 'string',
    'insecure-skip-tls-verify': 'bool',
    'certificate-authority': 'string',
    'certificate-authority-data': 'bytes',
    'proxy-url': 'string',
    'disable-compression': 'bool',
    extensions: { list: { fields: { name: 'string', extension: 'raw' } } }
  }
}

const EXEC: Kind = {
  fields: {
    command: 'string',
    args: 'strings',
    env: { list: { fields: { name: 'string', value: 'string' } } },
    apiVersion: 'string',
    installHint: 'string',
    provideClusterInfo: 'bool',
    interactiveMode: 'string',
    pluginPolicy: 'raw'
  }
}

const USER: Kind = {
  fields: {
    'client-certificate': 'string',
    'client-certificate-data': 'bytes',
    'client-key': 'string',
    'client-key-data': 'bytes',
    token: 'string',
    tokenFile: 'string',
    as: 'string',
    'as-uid': 'string',
    'as-groups': 'strings',
    'as-user-extra': { map: 'strings' },
    username: 'string',
    password: 'string',
    'auth-provider': { fields: { name: 'string', config: { map: 'string' } } },
    exec: EXEC,
    extensions: 'raw'
  }
}

const CONTEXT: Kind = {
  fields: { cluster: 'string', user: 'string', namespace: 'string', extensions: 'raw' }
}

const CONFIG: Kind = {
  fields: {
    clusters: { list: { fields: { name: 'string', cluster: CLUSTER } } },
    users: { list: { fields: { name: 'string', user: USER } } },
    contexts: { list: { fields: { name: 'string', context: CONTEXT } } },
    'current-context': 'string',
    preferences: 'raw',
    extensions: 'raw'
  }
}

export type Decoded = Record<string, unknown>

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a mapping'
  if (typeof value === 'boolean') return 'a boolean'
  return typeof value === 'number' || typeof value === 'bigint' ? 'a number' : 'a string'
}

// encoding/json's base64.StdEncoding: padded, line breaks skipped, nothing else outside the alphabet
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

function wrongType(where: string, value: unknown, wanted: string): Problem {
  const what = where === '' ? 'the document' : where
  return new Problem(`${what} is ${typeOf(value)}, not ${wanted}, which kubectl refuses too`)
}

/** Go's zero value of a list item given as null. */
const zero = (kind: Kind): unknown =>
  kind === 'string' ? '' : typeof kind === 'object' ? {} : undefined

function decode(value: unknown, kind: Kind, where: string): unknown {
  // JSON null leaves Go's zero value
  if (value === null || value === undefined) return undefined
  if (kind === 'raw') return value
  if (kind === 'string' || kind === 'bytes') {
    if (typeof value !== 'string') throw wrongType(where, value, 'a string')
    if (kind === 'bytes' && !BASE64.test(value.replace(/[\r\n]/g, ''))) {
      throw new Problem(`${where} is not base64, which kubectl refuses too`)
    }
    return value
  }
  if (kind === 'bool') {
    if (typeof value !== 'boolean') throw wrongType(where, value, 'true or false')
    return value
  }
  if (kind === 'strings') return decode(value, { list: 'string' }, where)
  if ('list' in kind) {
    if (!Array.isArray(value)) throw wrongType(where, value, 'a list')
    return value.map(
      (item: unknown, i) => decode(item, kind.list, `${where}[${i}]`) ?? zero(kind.list)
    )
  }
  if (typeof value !== 'object' || Array.isArray(value)) throw wrongType(where, value, 'a mapping')
  const entries = Object.entries(value as Decoded)
  if ('map' in kind) {
    return Object.fromEntries(
      entries.map(([key, item]) => [key, decode(item, kind.map, `${where}.${key}`)])
    )
  }
  const out: Decoded = {}
  for (const [key, item] of entries) {
    const field = kind.fields[key]
    if (field !== undefined) out[key] = decode(item, field, where === '' ? key : `${where}.${key}`)
  }
  return out
}

/** The kubeconfig document as kubectl's decoding leaves it: each field of its type, or undefined. */
export function decodeConfig(document: unknown): Decoded {
  return (decode(document, CONFIG, '') as Decoded | undefined) ?? {}
}
