// One kubeconfig's text as typed values, read once (the line YAML reader, else js-yaml), so a gate need not
// load client-node (a fifth of its memory) to find its cluster. The fields, their checks and their
// messages follow client-node's loadFromFile (config_types.ts), which the code used before: the same
// kubeconfig is read the same way, or refused naming the same field. Credentials are masked before
// any check can fail, from the parsed values, or from the raw text when it does not parse.
import path from 'node:path'
import { InputError } from '../runtime/errors.ts'
import { parseBlockYaml } from '../read/block-yaml.ts'
import type { ExecConfig } from './exec-plugin.ts'
import { maskClusterUserinfo, maskRawSecrets, maskUsers } from './secrets.ts'

export interface KubeCluster {
  name: string
  /** without a trailing slash */
  server: string
  caData?: string
  caFile?: string
  skipTLSVerify: boolean
  tlsServerName?: string
  proxyUrl?: string
}

export interface KubeUser {
  name: string
  token?: string
  tokenFile?: string
  username?: string
  password?: string
  certData?: string
  certFile?: string
  keyData?: string
  keyFile?: string
  exec?: ExecConfig
  authProvider?: Record<string, unknown>
  /** `as`: sent as Impersonate-User */
  impersonate?: string
}

export interface KubeContext {
  name: string
  cluster: string
  user?: string
  namespace?: string
}

export interface KubeconfigValues {
  clusters: KubeCluster[]
  users: KubeUser[]
  contexts: KubeContext[]
  currentContext?: string
}

export interface KubeconfigText {
  text: string
  /** starts every error: "Invalid kubeconfig" or "Invalid kubeconfig /path/config" */
  label: string
  /** the file's directory, against which relative file paths are resolved; none for the input */
  dir?: string
  mask: (secret: string) => void
}

type Raw = Record<string, unknown>

const isMapping = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** What is wrong with the structure, for readKubeconfigText to prefix with the file. */
class Problem extends Error {}

export async function readKubeconfigText(source: KubeconfigText): Promise<KubeconfigValues> {
  let config: unknown
  try {
    config = await parseConfig(source.text)
  } catch (error) {
    // the parser did not get to the fields: masked from the raw text, which a message may quote
    maskRawSecrets(source.text, source.mask)
    throw new InputError(`${source.label}: ${parseProblem(error)}`)
  }
  try {
    return readValues(config ?? {}, source)
  } catch (error) {
    if (error instanceof Problem) throw new InputError(`${source.label}: ${error.message}`)
    throw error
  }
}

/**
 * The one document: the line reader reads what kubectl and kind write; what it declines, js-yaml
 * reads as client-node did, so a kubeconfig it took is taken and one it refused is refused in the
 * same words ("duplicated mapping key (3:1)").
 */
async function parseConfig(text: string): Promise<unknown> {
  const documents = parseBlockYaml(text)
  if (documents?.length === 1) return documents[0]?.value
  return (await import('js-yaml')).load(text)
}

/**
 * The first line only (js-yaml appends a snippet of the offending input), without what it quotes: an
 * alias or tag it names can be a mistyped credential.
 */
function parseProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return (message.split('\n')[0] ?? message).replace(/"[^"]*"|'[^']*'|!<[^>]*>/g, '…')
}

function readValues(config: unknown, source: KubeconfigText): KubeconfigValues {
  if (!isMapping(config)) throw new Problem('not a mapping of clusters, users and contexts')
  const list = (key: string): Raw[] => {
    const value = config[key]
    return Array.isArray(value) ? value.map((item: unknown) => (isMapping(item) ? item : {})) : []
  }
  const inner = (key: string, entries: Raw[]): Raw[] =>
    entries.map((entry) => (isMapping(entry[key]) ? entry[key] : {}))
  maskUsers(inner('user', list('users')), source.mask)
  maskClusterUserinfo(inner('cluster', list('clusters')), source.mask)
  const file = (value: string | undefined): string | undefined =>
    value === undefined || source.dir === undefined || path.isAbsolute(value)
      ? value
      : path.join(source.dir, value)
  return {
    clusters: list('clusters').map((entry, i) => readCluster(entry, `clusters[${i}]`, file)),
    users: list('users').map((entry, i) => readUser(entry, `users[${i}]`, file)),
    contexts: list('contexts').map((entry, i) => readContext(entry, `contexts[${i}]`)),
    currentContext: field(config, 'current-context', 'current-context')
  }
}

/** A scalar field as a string (a number or boolean as written), undefined when absent or empty. */
function field(entry: Raw, key: string, where: string): string | undefined {
  const value = entry[key]
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  throw new Problem(`${where} is not a string`)
}

function present(entry: Raw, key: string, where: string): string {
  const value = field(entry, key, `${where}.${key}`)
  if (value === undefined) throw new Problem(`${where}.${key} is missing`)
  return value
}

/** The entry's name and its mapping under `key` ("cluster", "context"), both required. */
function named(entry: Raw, key: string, where: string): [string, Raw] {
  const name = present(entry, 'name', where)
  const value = entry[key]
  if (!isMapping(value)) throw new Problem(`${where}.${key} is missing`)
  return [name, value]
}

type Resolve = (file: string | undefined) => string | undefined

function readCluster(entry: Raw, where: string, file: Resolve): KubeCluster {
  const [name, cluster] = named(entry, 'cluster', where)
  const at = `${where}.cluster`
  const read = (key: string): string | undefined => field(cluster, key, `${at}.${key}`)
  return {
    name,
    server: present(cluster, 'server', at).replace(/\/$/, ''),
    caData: read('certificate-authority-data'),
    caFile: file(read('certificate-authority')),
    // as client-node: only a YAML true skips verification, not "true" or yes
    skipTLSVerify: cluster['insecure-skip-tls-verify'] === true,
    tlsServerName: read('tls-server-name'),
    proxyUrl: read('proxy-url')
  }
}

/**
 * kubectl's rule for an exec plugin's command: one with a path separator (./plugin.sh, bin/plugin)
 * is relative to the kubeconfig file's directory, never the working directory, where anyone who
 * can write a file could plant one; a bare name is looked up in PATH.
 */
function execCommandIn(exec: Raw | undefined, file: Resolve): Raw | undefined {
  const command = exec?.command
  if (typeof command !== 'string' || !/[\\/]/.test(command)) return exec
  return { ...exec, command: file(command) }
}

/** client-node also runs an exec entry inside an auth-provider's config: the same rule holds. */
function providerExecIn(provider: Raw | undefined, file: Resolve): Raw | undefined {
  const config = provider?.config
  if (!isMapping(config) || !isMapping(config.exec)) return provider
  return { ...provider, config: { ...config, exec: execCommandIn(config.exec, file) } }
}

function readUser(entry: Raw, where: string, file: Resolve): KubeUser {
  const name = present(entry, 'name', where)
  // client-node reads a user without its `user` mapping as one without credentials
  const user = isMapping(entry.user) ? entry.user : {}
  const at = `${where}.user`
  const read = (key: string): string | undefined => field(user, key, `${at}.${key}`)
  const object = (key: string): Raw | undefined => {
    const value = user[key]
    if (value === undefined || value === null) return undefined
    if (!isMapping(value)) throw new Problem(`${at}.${key} is not a mapping`)
    return value
  }
  return {
    name,
    token: read('token'),
    // client-go's key is tokenFile, client-node's token-file
    tokenFile: file(read('tokenFile') ?? read('token-file')),
    username: read('username'),
    password: read('password'),
    certData: read('client-certificate-data'),
    certFile: file(read('client-certificate')),
    keyData: read('client-key-data'),
    keyFile: file(read('client-key')),
    exec: execCommandIn(object('exec'), file),
    authProvider: providerExecIn(object('auth-provider'), file),
    impersonate: read('as')
  }
}

function readContext(entry: Raw, where: string): KubeContext {
  const [name, context] = named(entry, 'context', where)
  const at = `${where}.context`
  return {
    name,
    cluster: present(context, 'cluster', at),
    user: field(context, 'user', `${at}.user`),
    namespace: field(context, 'namespace', `${at}.namespace`)
  }
}

/**
 * kubectl's merge of the KUBECONFIG files: the first file to set a value wins, current-context
 * included, and of two entries with one name the first is kept.
 */
export function mergeFirstWins(configs: KubeconfigValues[]): KubeconfigValues {
  const firstOfEach = <T extends { name: string }>(lists: T[][]): T[] => {
    const seen = new Set<string>()
    return lists.flat().filter((entry) => !seen.has(entry.name) && seen.add(entry.name))
  }
  return {
    clusters: firstOfEach(configs.map((config) => config.clusters)),
    users: firstOfEach(configs.map((config) => config.users)),
    contexts: firstOfEach(configs.map((config) => config.contexts)),
    currentContext: configs.find((config) => config.currentContext)?.currentContext
  }
}
