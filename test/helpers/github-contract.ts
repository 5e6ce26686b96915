// GitHub's published REST API description (@octokit/openapi, pinned) as a judge of the fake GitHub:
// every request route-gate sends must be a documented operation with documented path and query
// parameters and a body the operation's schema accepts, and every answer the fake gives must be one
// that operation documents. Without it the fake could drift from GitHub and the tests would not see.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'

interface Parameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required?: boolean
  schema: object
}

interface Operation {
  operationId: string
  parameters?: (Parameter | { $ref: string })[]
  requestBody?: { content: Record<string, { schema: object }> }
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: object }> }>
}

interface Spec {
  paths: Record<string, Record<string, Operation>>
  components: { parameters: Record<string, Parameter>; responses: Record<string, object> }
}

const require = createRequire(import.meta.url)
// only the one description route-gate talks to (the package's index loads all ten, 400 MB)
const SPEC_FILE = path.join(
  path.dirname(require.resolve('@octokit/openapi/package.json')),
  'generated',
  'api.github.com.json'
)
const SPEC_ID = 'https://api.github.com/openapi.json'
const METHODS = ['get', 'put', 'post', 'patch', 'delete']

let loaded: { spec: Spec; ajv: Record<Mode, Ajv>; routes: Route[] } | undefined

/** parameters arrive as strings and are coerced as a server does; bodies and answers are JSON and
 * must have the documented types as they are */
type Mode = 'coerce' | 'exact'

function newAjv(mode: Mode, spec: Spec): Ajv {
  // OpenAPI 3.0 schemas: `nullable`, `example` and x- keys are not JSON Schema keywords
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    coerceTypes: mode === 'coerce',
    logger: false
  })
  addFormats.default(ajv)
  ajv.addSchema({ paths: spec.paths, components: spec.components }, SPEC_ID)
  return ajv
}

interface Route {
  template: string
  pattern: RegExp
  names: string[]
}

/** Reads the description (about 2 s): done before serving, so no request waits for it. */
export function loadDescription(): void {
  load()
}

function load(): NonNullable<typeof loaded> {
  if (loaded) return loaded
  const spec = toJsonSchema(JSON.parse(readFileSync(SPEC_FILE, 'utf8'))) as Spec
  const routes = Object.keys(spec.paths).map((template) => {
    const names: string[] = []
    const source = template
      .split(/(\{[^}]+\})/)
      .map((part) => {
        const name = /^\{(.+)\}$/.exec(part)?.[1]
        if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
        names.push(name)
        return '([^/]+)'
      })
      .join('')
    return { template, pattern: new RegExp(`^${source}$`), names }
  })
  loaded = { spec, ajv: { coerce: newAjv('coerce', spec), exact: newAjv('exact', spec) }, routes }
  return loaded
}

/** OpenAPI 3.0's `nullable: true` as JSON Schema says it: null is one more accepted value. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema)
  if (node === null || typeof node !== 'object') return node
  const { nullable, ...rest } = node as Record<string, unknown>
  const out = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, toJsonSchema(v)]))
  if (nullable !== true) return nullable === undefined ? out : { ...out, nullable }
  if (typeof out.type === 'string' && out.enum === undefined)
    return { ...out, type: [out.type, 'null'] }
  return { anyOf: [out, { type: 'null' }] }
}

const validators = new Map<string, ValidateFunction>()

/** A validator for the schema at `pointer` (JSON Pointer tokens) inside the description. */
function validatorAt(tokens: string[], mode: Mode): ValidateFunction {
  const pointer = tokens
    .map((t) => encodeURIComponent(t.replace(/~/g, '~0').replace(/\//g, '~1')))
    .join('/')
  const ref = `${SPEC_ID}#/${pointer}`
  let validate = validators.get(`${mode} ${ref}`)
  if (validate === undefined) {
    validate = load().ajv[mode].compile({ $ref: ref })
    validators.set(`${mode} ${ref}`, validate)
  }
  return validate
}

function resolve<T>(spec: Spec, item: T | { $ref: string }): { value: T; tokens: string[] } {
  const ref = (item as { $ref?: string }).$ref
  if (ref === undefined) return { value: item as T, tokens: [] }
  const tokens = ref.replace(/^#\//, '').split('/')
  let value: unknown = spec
  for (const t of tokens) value = (value as Record<string, unknown>)[t]
  return { value: value as T, tokens }
}

export interface Exchange {
  method: string
  /** path without the query */
  path: string
  query: Record<string, string>
  body: unknown
  status: number
  response: unknown
}

export interface Verdict {
  /** the operation's id in the description, e.g. issues/create, when the request matched one */
  operation?: string
  problems: string[]
}

function errors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`)
    .join('; ')
}

/** Judges one request and the answer the fake gave to it against the published description. */
export function checkExchange(exchange: Exchange): Verdict {
  const { spec, routes } = load()
  const method = exchange.method.toLowerCase()
  const matches = routes
    .map((r) => ({ route: r, m: r.pattern.exec(exchange.path) }))
    .filter(
      (x) => x.m !== null && METHODS.includes(method) && spec.paths[x.route.template]![method]
    )
  // a literal segment beats a parameter: /issues/comments/{id} over /issues/{issue_number}/...
  matches.sort((a, b) => a.route.names.length - b.route.names.length)
  const found = matches[0]
  if (found === undefined) {
    return { problems: [`${exchange.method} ${exchange.path} is no documented operation`] }
  }
  const template = found.route.template
  const operation = spec.paths[template]![method]!
  const where = `${operation.operationId} (${exchange.method} ${template})`
  const problems: string[] = []
  const parameters = (operation.parameters ?? []).map((p) => resolve<Parameter>(spec, p))

  parameters.forEach(({ value: p, tokens }, index) => {
    let raw: string | undefined
    if (p.in === 'path') {
      const at = found.route.names.indexOf(p.name)
      raw = at < 0 ? undefined : decodeURIComponent(found.m![at + 1]!)
    } else if (p.in === 'query') {
      raw = exchange.query[p.name]
    } else {
      return
    }
    if (raw === undefined) {
      if (p.required) problems.push(`${where}: required ${p.in} parameter ${p.name} is missing`)
      return
    }
    const schemaAt =
      tokens.length > 0
        ? [...tokens, 'schema']
        : ['paths', template, method, 'parameters', String(index), 'schema']
    const validate = validatorAt(schemaAt, 'coerce')
    const shown = raw
    if (!validate(raw)) {
      problems.push(`${where}: ${p.in} parameter ${p.name}=${shown}: ${errors(validate)}`)
    }
  })
  const known = new Set(parameters.filter((p) => p.value.in === 'query').map((p) => p.value.name))
  for (const name of Object.keys(exchange.query)) {
    if (!known.has(name)) problems.push(`${where}: query parameter ${name} is not documented`)
  }

  const bodySchema = operation.requestBody?.content['application/json']
  if (exchange.body !== undefined) {
    if (bodySchema === undefined) {
      problems.push(`${where}: sends a body, and the operation takes none`)
    } else {
      const validate = validatorAt(
        ['paths', template, method, 'requestBody', 'content', 'application/json', 'schema'],
        'exact'
      )
      if (!validate(exchange.body)) {
        problems.push(`${where}: request body: ${errors(validate)}`)
      }
    }
  }

  problems.push(...checkResponse(spec, operation, template, method, where, exchange))
  return { operation: operation.operationId, problems }
}

// Statuses GitHub sends on any operation without listing them on each: a refused token, a repository
// the token cannot see, rate limits and server errors; their body is GitHub's basic error
const ANY_OPERATION = new Set([401, 403, 404, 429, 500, 502, 503, 504])

function checkResponse(
  spec: Spec,
  operation: Operation,
  template: string,
  method: string,
  where: string,
  exchange: Exchange
): string[] {
  const documented = operation.responses[String(exchange.status)]
  let tokens: string[]
  if (documented === undefined) {
    if (!ANY_OPERATION.has(exchange.status)) {
      return [`${where}: answered ${exchange.status}, which the operation does not document`]
    }
    tokens = ['components', 'schemas', 'basic-error']
  } else {
    const { value, tokens: refTokens } = resolve(spec, documented)
    const base =
      refTokens.length > 0
        ? refTokens
        : ['paths', template, method, 'responses', `${exchange.status}`]
    if ((value as { content?: unknown }).content === undefined) {
      return exchange.response === undefined
        ? []
        : [`${where}: answered ${exchange.status} with a body the operation does not document`]
    }
    tokens = [...base, 'content', 'application/json', 'schema']
  }
  const validate = validatorAt(tokens, 'exact')
  if (validate(exchange.response)) return []
  return [`${where}: ${exchange.status} response: ${errors(validate)}`]
}
