// One kubeconfig's text as typed values, read once, as kubectl reads it: YAML as Kubernetes reads
// it (read/manifests.ts: YAML 1.1 scalars, merge keys, the last of duplicate keys), decoded into
// clientcmd's v1 types (kubeconfig-schema.ts), relative paths resolved against the file's directory
// (loader.go's ResolveLocalPaths). Credentials are masked before any check can fail, from the parsed
// values, or from the raw text when it does not parse.
import path from 'node:path'
import { InputError } from '../runtime/errors.ts'
import { parseDocuments } from '../read/manifests.ts'
import type { ExecConfig } from './exec-plugin.ts'
import { decodeConfig, Problem, type Decoded } from './kubeconfig-schema.ts'
import { maskClusterUserinfo, maskRawSecrets, maskUsers } from './secrets.ts'

export interface KubeCluster {
  name: string
  /** as written; empty when the kubeconfig gives none */
  server: string
  caData?: string
  caFile?: string
  skipTLSVerify: boolean
  tlsServerName?: string
  proxyUrl?: string
  disableCompression?: boolean
  /** the cluster's `client.authentication.k8s.io/exec` extension, given to a plugin that asks */
  execExtension?: unknown
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
  /** `as`: sent as Impersonate-User, with the three below */
  impersonate?: string
  impersonateUid?: string
  impersonateGroups?: string[]
  impersonateExtra?: Record<string, string[]>
}

export interface KubeContext {
  name: string
  cluster?: string
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

export async function readKubeconfigText(source: KubeconfigText): Promise<KubeconfigValues> {
  let document: unknown
  try {
    // kubectl decodes the first document of the file; an empty one is an empty kubeconfig
    document = (await parseDocuments(source.text, 'the kubeconfig'))[0]?.value
  } catch (error) {
    // the parser did not get to the fields: masked from the raw text, which a message may quote
    maskRawSecrets(source.text, source.mask)
    throw new InputError(`${source.label}: ${parseProblem(error)}`)
  }
  maskParsed(document, source.mask)
  try {
    return readValues(decodeConfig(document), source)
  } catch (error) {
    if (error instanceof Problem) throw new InputError(`${source.label}: ${error.message}`)
    throw error
  }
}

/** The credentials in the parsed document, wherever its shape lets them be found. */
function maskParsed(document: unknown, mask: (secret: string) => void): void {
  const inner = (list: string, key: string): Raw[] => {
    const entries = isMapping(document) ? document[list] : undefined
    if (!Array.isArray(entries)) return []
    return entries.flatMap((entry: unknown) =>
      isMapping(entry) && isMapping(entry[key]) ? [entry[key]] : []
    )
  }
  maskUsers(inner('users', 'user'), mask)
  maskClusterUserinfo(inner('clusters', 'cluster'), mask)
}

/**
 * The first line only, without what it quotes: an alias, tag or key it names can be a mistyped
 * credential.
 */
function parseProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return (message.split('\n')[0] ?? message)
    .replace(/^the kubeconfig document \d+ \((line \d+, column \d+)\)/, '$1')
    .replace(/"[^"]*"|'[^']*'|!<[^>]*>/g, '…')
}

type Resolve = (file: string | undefined) => string | undefined

/** A string field: kubectl tests `len(field) == 0`, so an empty string is no value. */
const text = (entry: Decoded | undefined, key: string): string | undefined => {
  const value = entry?.[key]
  return typeof value === 'string' && value !== '' ? value : undefined
}

function readValues(config: Decoded, source: KubeconfigText): KubeconfigValues {
  const list = (key: string): Decoded[] => (config[key] as Decoded[] | undefined) ?? []
  // a relative path is the kubeconfig file's (an input has no file: kubectl reads it as the working
  // directory's)
  const file: Resolve = (value) =>
    value === undefined || source.dir === undefined || path.isAbsolute(value)
      ? value
      : path.join(source.dir, value)
  const values = {
    clusters: list('clusters').map((entry) => readCluster(entry, file)),
    users: list('users').map((entry) => readUser(entry, file, source.dir !== undefined)),
    contexts: list('contexts').map(readContext),
    currentContext: text(config, 'current-context')
  }
  for (const [key, entries] of Object.entries(values)) {
    if (Array.isArray(entries)) refuseDuplicates(key, entries)
  }
  return values
}

/** clientcmd's conversion to its maps refuses a name given twice in one file. */
function refuseDuplicates(key: string, entries: { name: string }[]): void {
  const seen = new Set<string>()
  for (const { name } of entries) {
    if (seen.has(name)) {
      throw new Problem(`${key} has two entries named "${name}", which kubectl refuses too`)
    }
    seen.add(name)
  }
}

function readCluster(entry: Decoded, file: Resolve): KubeCluster {
  const cluster = entry.cluster as Decoded | undefined
  const extensions = (cluster?.extensions as Decoded[] | undefined) ?? []
  return {
    name: text(entry, 'name') ?? '',
    server: text(cluster, 'server') ?? '',
    caData: text(cluster, 'certificate-authority-data'),
    caFile: file(text(cluster, 'certificate-authority')),
    skipTLSVerify: cluster?.['insecure-skip-tls-verify'] === true,
    tlsServerName: text(cluster, 'tls-server-name'),
    proxyUrl: text(cluster, 'proxy-url'),
    disableCompression: cluster?.['disable-compression'] === true,
    execExtension: extensions.find((e) => e.name === 'client.authentication.k8s.io/exec')?.extension
  }
}

/**
 * kubectl's rule for an exec plugin's command: one with a slash (./plugin.sh, bin/plugin) is
 * relative to the kubeconfig file's directory; a bare name is looked up in PATH. A kubeconfig given
 * as the Action's input has no directory, and kubectl would run such a command from the working
 * directory, the checked-out pull request, where anyone who can open one can plant it: refused.
 */
function execCommandIn(
  exec: Decoded | undefined,
  file: Resolve,
  fromFile: boolean
): Decoded | undefined {
  const command = text(exec, 'command')
  if (command === undefined || !command.includes('/') || path.isAbsolute(command)) return exec
  if (!fromFile) {
    throw new Problem(
      `the exec plugin command "${command}" is a relative path, which the kubeconfig input (no file) would resolve against the working directory, the checked-out code: give an absolute path, or a bare name found in PATH`
    )
  }
  return { ...exec, command: file(command) }
}

function readUser(entry: Decoded, file: Resolve, fromFile: boolean): KubeUser {
  const user = entry.user as Decoded | undefined
  const groups = user?.['as-groups'] as string[] | undefined
  return {
    name: text(entry, 'name') ?? '',
    token: text(user, 'token'),
    tokenFile: file(text(user, 'tokenFile')),
    username: text(user, 'username'),
    password: text(user, 'password'),
    certData: text(user, 'client-certificate-data'),
    certFile: file(text(user, 'client-certificate')),
    keyData: text(user, 'client-key-data'),
    keyFile: file(text(user, 'client-key')),
    exec: execCommandIn(user?.exec as Decoded | undefined, file, fromFile),
    authProvider: user?.['auth-provider'] as Decoded | undefined,
    impersonate: text(user, 'as'),
    impersonateUid: text(user, 'as-uid'),
    impersonateGroups: groups?.length ? groups : undefined,
    impersonateExtra: user?.['as-user-extra'] as Record<string, string[]> | undefined
  }
}

function readContext(entry: Decoded): KubeContext {
  const context = entry.context as Decoded | undefined
  return {
    name: text(entry, 'name') ?? '',
    cluster: text(context, 'cluster'),
    user: text(context, 'user'),
    namespace: text(context, 'namespace')
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
