// Reads manifest files and dumps into documents that remember their file, position and line, so that
// every error (and every annotation) can point at the exact place. Nothing here talks to a cluster.
// One fast reader per text: JSON.parse for JSON; for YAML the dump reader, the line reader, or
// js-yaml's event parser (imported for what both decline); the precise YAML reader is imported only
// for a text they refuse, to word its error.
import { glob as globCallback, realpath as realpathCallback, stat as statCallback } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { parseJson } from './fast-json.ts'
import type { ParsedDocument } from './parsed-document.ts'
import { parseBlockYaml } from './block-yaml.ts'
import { parseDumpYaml } from './dump-yaml.ts'
import { InputError } from '../runtime/errors.ts'
import { readStdin, readUserFile } from './files.ts'
import { isRouteObject } from '../model/kinds.ts'
import { apiGroupOf } from '../model/owner.ts'
import { apiLimitError } from '../model/api-limits.ts'
import { isDns1035Label, isDnsLabel, isDnsSubdomain } from '../model/names.ts'
import { stripControl, truncate } from '../model/plain-text.ts'
import { routeShapeError } from '../model/shape.ts'
import { EXPERIMENTAL_GROUP, GATEWAY_GROUP, type KubeObject } from '../model/types.ts'

/** A document read from a manifest file, with where it came from. */
export interface ManifestDocument {
  file: string
  /** 1-based position of the document in its file */
  index: number
  /** 1-based line where the document starts */
  line: number
  object: KubeObject
}

// not node:fs/promises, which loads Node's readline and file watchers with it (files.ts)
const realpath = promisify(realpathCallback)
const stat = promisify(statCallback)

function glob(pattern: string, cwd: string): Promise<string[]> {
  return new Promise((resolve, reject) =>
    globCallback(pattern, { cwd }, (error, found) => (error ? reject(error) : resolve(found)))
  )
}

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml', '.json'])

/**
 * Expands files, directories (their *.yaml, *.yml, *.json) and globs into a sorted file list. A
 * relative entry stays inside `cwd` (the workspace) after symlinks are resolved, so a committed
 * symlink cannot make the run read /dev/zero or a file of the runner; an absolute entry is the
 * user's explicit choice. Only regular files are read (readText).
 */
/** The manifests entry (and from-file) that reads standard input: `helm template … | route-gate …` */
export const STDIN = '-'

/**
 * Every file the entries name. `input` is the setting they came from, as an error names it:
 * `manifests entry` or `from-file`.
 */
export async function expandManifestPaths(
  entries: string[],
  cwd: string,
  input = 'manifests entry'
): Promise<string[]> {
  const files: string[] = []
  const workspace = await realpath(cwd).catch(() => path.resolve(cwd))
  for (const entry of entries) {
    if (entry === STDIN) {
      files.push(STDIN)
      continue
    }
    const absolute = path.resolve(cwd, entry)
    const info = await stat(absolute).catch(() => undefined)
    let found: string[]
    if (info?.isDirectory()) {
      found = []
      for (const f of await glob('*', absolute)) {
        if (MANIFEST_EXTENSIONS.has(path.extname(f))) found.push(path.join(absolute, f))
      }
      if (found.length === 0) {
        throw new InputError(`${input} "${entry}": the directory has no .yaml, .yml or .json file`)
      }
    } else if (info !== undefined) {
      found = [absolute]
    } else {
      found = []
      for (const f of await glob(entry, cwd)) found.push(path.resolve(cwd, f))
      if (found.length === 0) throw new InputError(`${input} "${entry}": no such file`)
    }
    if (!path.isAbsolute(entry)) {
      for (const file of found) await insideWorkspace(file, workspace, `${input} "${entry}"`, cwd)
    }
    files.push(...found.sort())
  }
  return [...new Set(files)]
}

async function insideWorkspace(
  file: string,
  workspace: string,
  named: string,
  cwd: string
): Promise<void> {
  const real = await realpath(file).catch(() => file)
  const relative = path.relative(workspace, real)
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new InputError(
      `${named}: ${displayPath(file, cwd)} resolves to ${real}, outside the workspace ${cwd}; give an absolute path to read a file outside it`
    )
  }
}

/** Runs the reading of a `from-file` dump, so that a bad document in it is said to be there. */
export async function readingFromFile<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof InputError && !error.message.startsWith('from-file')) {
      throw new InputError(`from-file ${error.message}`)
    }
    throw error
  }
}

/** The run's deadline: reading manifests is part of the run, so it counts against `timeout`. */
export interface LoadDeadline {
  at: number
  now: () => number
}

/** Reads and parses every document of every file; a bad document anywhere is an InputError. */
export async function loadManifests(
  files: string[],
  cwd: string,
  deadline?: LoadDeadline
): Promise<ManifestDocument[]> {
  const docs: ManifestDocument[] = []
  for (const file of files) {
    const shown = file === STDIN ? 'stdin' : displayPath(file, cwd)
    docs.push(...(await parseManifestText(await readText(file, shown), shown)))
    if (deadline !== undefined && deadline.now() > deadline.at) {
      throw new InputError(
        `Reading the manifests used up the timeout (at ${shown}): raise timeout or gate fewer files per step`
      )
    }
  }
  rejectDuplicates(docs)
  return docs
}

/** One file (or stdin) read and parsed, with its text: a dump's header line rides on it. */
export async function readManifestFile(
  file: string,
  cwd: string
): Promise<{ text: string; shown: string; docs: ManifestDocument[] }> {
  const shown = file === STDIN ? 'stdin' : displayPath(file, cwd)
  const text = await readText(file, shown)
  return { text, shown, docs: await parseManifestText(text, shown) }
}

function displayPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file)
  return relative.startsWith('..') ? file : relative
}

async function readText(file: string, shown: string): Promise<string> {
  const bytes = file === STDIN ? await readStdin(shown) : await readUserFile(file, shown)
  if (bytes.subarray(0, 8192).includes(0)) {
    throw new InputError(`${shown}: binary data, not a YAML or JSON manifest`)
  }
  return bytes.toString('utf8')
}

/** Parses one file's text: multi-document YAML, JSON, or a List (its items become documents). */
export async function parseManifestText(text: string, file: string): Promise<ManifestDocument[]> {
  if (text.trim() === '') throw new InputError(`${file}: the file is empty`)
  const documents = await parseDocuments(text, file)
  const out: ManifestDocument[] = []
  documents.forEach((doc, i) => {
    const index = i + 1
    const where = `${file} document ${index}`
    if (doc.value === null || doc.value === undefined) return
    for (const item of flattenList(doc, where)) {
      out.push({
        file,
        index,
        line: item.line ?? doc.line,
        object: checkObject(item.value, item.where)
      })
    }
  })
  if (out.length === 0) throw new InputError(`${file}: no documents (only comments or separators)`)
  return out
}

/**
 * The documents of a text as kubectl reads them: the fast readers take what they read exactly so,
 * the precise reader the rest (and names the line of what it refuses).
 */
export async function parseDocuments(text: string, file: string): Promise<ParsedDocument[]> {
  return (
    parseJson(text) ??
    parseDumpYaml(text) ??
    parseBlockYaml(text) ??
    (await import('./fast-yaml.ts')).parseYaml(text) ??
    (await import('./precise-yaml.ts')).parsePrecisely(text, file, (warning) =>
      process.stderr.write(`route-gate: warning: ${warning}\n`)
    )
  )
}

interface Item {
  value: unknown
  where: string
  line?: number
}

function flattenList(doc: ParsedDocument, where: string): Item[] {
  const object = doc.value as { kind?: unknown; items?: unknown }
  if (
    typeof object !== 'object' ||
    typeof object.kind !== 'string' ||
    !object.kind.endsWith('List')
  ) {
    return [{ value: doc.value, where }]
  }
  if (!Array.isArray(object.items)) {
    throw new InputError(`${where}: field "items" of a ${object.kind} must be a list`)
  }
  return (object.items as unknown[]).map((item, i) => ({
    value: item,
    where: `${where} items[${i}]`,
    line: doc.itemLines[i]
  }))
}

function checkObject(value: unknown, where: string): KubeObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError(`${where}: a Kubernetes object must be a mapping, got ${typeName(value)}`)
  }
  const o = value as Record<string, unknown>
  for (const field of ['apiVersion', 'kind'] as const) {
    if (typeof o[field] !== 'string' || o[field] === '') {
      throw new InputError(`${where}: field "${field}" is missing or not a string`)
    }
  }
  const metadata = o.metadata as Record<string, unknown> | undefined
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw new InputError(`${where}: field "metadata" is missing or not a mapping`)
  }
  if (typeof metadata.name !== 'string' || metadata.name === '') {
    throw new InputError(`${where}: field "metadata.name" is missing or not a string`)
  }
  if (metadata.namespace !== undefined && typeof metadata.namespace !== 'string') {
    throw new InputError(`${where}: field "metadata.namespace" must be a string`)
  }
  const object = value as KubeObject
  checkNames(object, where)
  // before the shape walk and all of predict's work: a list over its limit is refused at its length
  const error = apiLimitError(object) ?? (isRouteObject(object) ? routeShapeError(object) : null)
  if (error) {
    throw new InputError(
      `${where} (${object.kind} ${object.metadata.name}): field "${error.field}" ${error.message}`
    )
  }
  return object
}

/** A name rule of the API server: the test, and what it asks for, as a refusal says it. */
interface NameRule {
  valid: (text: string) => boolean
  what: string
}

const CHARACTERS = 'lowercase letters, digits and "-"'
const LABEL: NameRule = {
  valid: isDnsLabel,
  what: `a DNS-1123 label (${CHARACTERS}, starting and ending with a letter or digit, at most 63 characters)`
}
const SERVICE_NAME: NameRule = {
  valid: isDns1035Label,
  what: `a DNS-1035 label (${CHARACTERS}, starting with a letter, ending with a letter or digit, at most 63 characters)`
}
const SUBDOMAIN: NameRule = {
  valid: isDnsSubdomain,
  what: 'a DNS-1123 subdomain (lowercase letters, digits, "-" and ".", starting and ending with a letter or digit, at most 253 characters)'
}

/** The rule for the name of a kind predict reads; other kinds are the API server's to check. */
function nameRule(object: KubeObject): NameRule | undefined {
  const group = apiGroupOf(object)
  if (group === GATEWAY_GROUP || group === EXPERIMENTAL_GROUP) return SUBDOMAIN
  if (group !== '') return undefined
  return object.kind === 'Namespace' ? LABEL : object.kind === 'Service' ? SERVICE_NAME : undefined
}

/** A refused name as a message shows it: cut first (it may be megabytes), then cleaned, then cut. */
function shown(text: string): string {
  return truncate(stripControl(truncate(text, 200)), 80)
}

/**
 * Refuses a metadata.name or metadata.namespace the API server would reject, on the objects predict
 * reads: a pull request's manifest is never applied before predict judges it, so nothing else
 * would. The refused value is untrusted: shown cleaned, cut and quoted.
 */
function checkNames(object: KubeObject, where: string): void {
  const rule = nameRule(object)
  if (rule === undefined) return
  const refuse = (field: string, text: string, { what }: NameRule): never => {
    throw new InputError(`${where}: field "${field}" ${JSON.stringify(shown(text))} is not ${what}`)
  }
  const { name, namespace } = object.metadata
  if (!rule.valid(name)) refuse('metadata.name', name, rule)
  if (namespace !== undefined && !LABEL.valid(namespace)) {
    refuse('metadata.namespace', namespace, LABEL)
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  return typeof value === 'object' ? 'a mapping' : `a ${typeof value}`
}

function rejectDuplicates(docs: ManifestDocument[]): void {
  const seen = new Map<string, ManifestDocument>()
  for (const doc of docs) {
    const { apiVersion, kind, metadata } = doc.object
    const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : ''
    const key = `${group}/${kind}/${metadata.namespace ?? ''}/${metadata.name}`
    const first = seen.get(key)
    if (first) {
      throw new InputError(
        `${doc.file} document ${doc.index}: ${kind} ${metadata.namespace ? `${metadata.namespace}/` : ''}${metadata.name} is also defined in ${first.file} document ${first.index}`
      )
    }
    seen.set(key, doc)
  }
}
