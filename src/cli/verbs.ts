// The command line's verbs and flags, read as kubectl users expect: one entry per verb with the
// flags it takes and its help, long flags named after the inputs (src/inputs, the one list), the
// kubectl short forms (-n, -A, -l, -o), and a nearest-name suggestion for a mistyped verb or flag.
import { parseArgs } from 'node:util'
import { InputError } from '../runtime/errors.ts'
import type { Command } from '../inputs/settings.ts'
import { INPUTS, type InputSpec } from '../inputs/table.ts'
import { TOOL_VERSION } from '../runtime/version.ts'
import { nearestNames } from '../model/nearest.ts'

export type VerbName = 'check' | 'apply' | 'monitor' | 'dump' | 'predict'

export interface Verb {
  name: VerbName
  /** one line for the verb list */
  summary: string
  /** usage lines, after "route-gate " */
  usage: string[]
  command: Command
  /** server-side apply the manifests before gating them */
  apply: boolean
  /** the inputs it takes as flags */
  takes: (input: string) => boolean
  /** flag names that mean another input for this verb (dump's -o is a file, not a format) */
  renames?: Record<string, string>
  /** what its verdicts mean, when they are not the gate's */
  verdicts?: string
}

const MONITOR_ONLY = new Set(['fail-on', 'watch-duration', 'previous', 'state-out'])
const DUMP_ONLY = new Set(['output-file'])
// the monitor judges once (or watches for --watch-duration): it has no deadline to wait for
const GATE_ONLY = new Set([
  'manifests',
  'routes',
  'timeout',
  'fail-fast',
  'heartbeat',
  'verify-traffic',
  'gateway-address',
  'expect-status',
  'traffic-ca',
  'traffic-skip-tls-verify',
  'traffic-successes',
  'traffic-allowed-cidrs',
  'traffic-show-body'
])

const PREDICT_FLAGS = new Set([
  'manifests',
  'from-file',
  'partial-dump',
  'namespace',
  'conditions',
  'strict',
  'kubeconfig',
  'context',
  'format',
  'report-file',
  'timeout'
])

export const VERBS: Verb[] = [
  {
    name: 'check',
    summary: 'read-only: locate Routes, wait until every parent is ready, judge',
    usage: [
      'check (--routes KIND/NAME | -l SELECTOR | --manifests FILES) [flags]',
      'check --from-file DUMP|- [flags]      judge a saved dump: no cluster, no waiting'
    ],
    command: 'gate',
    apply: false,
    takes: (input) => !MONITOR_ONLY.has(input) && !DUMP_ONLY.has(input) && input !== 'dry-run'
  },
  {
    name: 'apply',
    summary: 'server-side apply --manifests (dry-run of every document first), then gate',
    usage: ['apply --manifests FILES [flags]'],
    command: 'gate',
    apply: true,
    takes: (input) => !MONITOR_ONLY.has(input) && !DUMP_ONLY.has(input) && input !== 'from-file'
  },
  {
    name: 'monitor',
    summary: 'judge every Route in scope and report what changed since --previous',
    usage: ['monitor [-n NAMESPACE | -A] [--previous FILE] [--state-out FILE] [flags]'],
    command: 'monitor',
    apply: false,
    takes: (input) => !GATE_ONLY.has(input) && !DUMP_ONLY.has(input) && input !== 'dry-run'
  },
  {
    name: 'predict',
    summary: 'read-only: predict what the controllers will write for --manifests, before applying',
    usage: [
      'predict --manifests FILES|- [--from-file DUMP|-] [flags]',
      'predict --manifests FILES|-             against the live cluster, read-only'
    ],
    command: 'predict',
    apply: false,
    takes: (input) => PREDICT_FLAGS.has(input),
    verdicts: `Verdicts, per parent and then per Route:
  ready    the objects show every --conditions True: the parent is attached and its backends resolve.
  failed   the objects decide a condition False (a listener that refuses the Route, a missing
           Service or port, a ReferenceGrant not given); exit 1.
  unknown  the objects cannot tell: a kind the dump does not list, a Gateway its controller has not
           accepted, a controller's own precedence. The why says what. Exit 0, as nothing is known
           to be wrong; --strict fails it, exit 1.`
  },
  {
    name: 'dump',
    summary: 'read-only: write the cluster objects predict needs (never Secrets) to a file',
    usage: ['dump -o FILE|- [--kubeconfig PATH] [--context NAME]'],
    command: 'dump',
    apply: false,
    takes: (input) => ['output-file', 'kubeconfig', 'context'].includes(input),
    renames: { o: 'output-file', output: 'output-file' }
  }
]

const CLI_INPUTS = INPUTS.filter((i) => i.actionOnly !== true)
const BOOLEANS = new Set(
  CLI_INPUTS.filter((i) => i.default === 'true' || i.default === 'false').map((i) => i.name)
)
const LISTS = new Set(['manifests', 'routes'])
/** kubectl's short forms, and its --output beside --format */
const SHORT: Record<string, string> = {
  n: 'namespace',
  A: 'all-namespaces',
  l: 'selector',
  o: 'format'
}
const ALIASES: Record<string, string> = { output: 'format' }

export type Parsed = { help: string } | { verb: Verb; values: Map<string, string> }

/** argv after the program name: a verb's settings, or the help that was asked for. */
export function parseCommandLine(argv: string[]): Parsed {
  const [first = '', ...rest] = argv
  if (first === '--help' || first === '-h') return { help: usage() }
  if (first === 'help') {
    return { help: rest[0] === undefined ? usage() : verbUsage(verbNamed(rest[0])) }
  }
  const verb = verbNamed(first)
  if (rest.includes('--help') || rest.includes('-h')) return { help: verbUsage(verb) }
  return { verb, values: flagValues(verb, rest) }
}

function verbNamed(name: string): Verb {
  const verb = VERBS.find((v) => v.name === name)
  if (verb) return verb
  const names = VERBS.map((v) => v.name)
  const near = nearestNames(name, names, 1)[0]
  throw new InputError(
    `Unknown command "${name}": ${near === undefined ? '' : `did you mean ${near}? `}use one of ${names.join(', ')} (see route-gate --help)`
  )
}

function flagValues(verb: Verb, args: string[]): Map<string, string> {
  const flags = CLI_INPUTS.filter((i) => verb.takes(i.name))
  const options = Object.fromEntries(
    flags.map((i) => [i.name, { type: 'string' as const, multiple: true }])
  )
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({
      args: normalized(args, verb),
      options,
      strict: true,
      allowPositionals: true
    })
  } catch (error) {
    throw flagError(verb, error)
  }
  const [positional] = parsed.positionals
  if (positional !== undefined) {
    throw new InputError(
      `Unexpected argument "${positional}": flags look like --name value (see route-gate ${verb.name} --help)`
    )
  }
  const values = new Map<string, string>()
  for (const [name, given] of Object.entries(parsed.values)) {
    const list = (given as string[] | undefined) ?? []
    if (list.length > 1 && !LISTS.has(name)) throw new InputError(`Flag --${name} is given twice`)
    values.set(name, list.join('\n'))
  }
  return values
}

/**
 * Short forms and aliases written as their long flag with its value joined on: `--strict`,
 * `--strict true` and `--strict=false` all read as the input does, and `-n shop` as --namespace=shop.
 */
function normalized(args: string[], verb: Verb): string[] {
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    const short = /^-([a-zA-Z])(?:=?(.*))?$/s.exec(arg)
    const long = /^--([a-z-]+)(=.*)?$/s.exec(arg)
    let name: string | undefined
    let inline: string | undefined
    const shortName = short ? (verb.renames?.[short[1]!] ?? SHORT[short[1]!]) : undefined
    if (short && shortName !== undefined) {
      name = shortName
      inline = short[2] === '' ? undefined : short[2]
    } else if (long) {
      name = verb.renames?.[long[1]!] ?? ALIASES[long[1]!] ?? long[1]!
      inline = long[2]?.slice(1)
    }
    if (name === undefined) {
      out.push(arg)
      continue
    }
    if (inline !== undefined) {
      out.push(`--${name}=${inline}`)
    } else if (BOOLEANS.has(name)) {
      const next = args[i + 1]
      const given = next !== undefined && /^(true|false|yes|no|on|off)$/i.test(next)
      out.push(`--${name}=${given ? next : 'true'}`)
      if (given) i++
    } else if (args[i + 1] === undefined) {
      out.push(`--${name}`)
    } else {
      // the next argument is the value, even one that starts with a dash (`--from-file -`)
      out.push(`--${name}=${args[++i]!}`)
    }
  }
  return out
}

function flagError(verb: Verb, error: unknown): InputError {
  const e = error as { code?: string; message?: string }
  const option = /'(-{1,2}[^'\s=<]+)/.exec(e.message ?? '')?.[1] ?? ''
  const name = option.replace(/^-+/, '')
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return new InputError(`Flag --${name} needs a value`)
  }
  const help = `see route-gate ${verb.name} --help`
  const owner = VERBS.find(
    (v) => v !== verb && v.takes(name) && CLI_INPUTS.some((i) => i.name === name)
  )
  if (owner) {
    return new InputError(
      `Flag ${option} belongs to route-gate ${owner.name}, not ${verb.name} (${help})`
    )
  }
  if (INPUTS.some((i) => i.name === name && i.actionOnly === true)) {
    return new InputError(`Flag ${option} is an input of the Action only (${help})`)
  }
  // a one-letter flag is too short to guess from
  const near = option.startsWith('--')
    ? nearestNames(
        name,
        CLI_INPUTS.filter((i) => verb.takes(i.name)).map((i) => i.name),
        1
      )[0]
    : undefined
  const suggestion = near === undefined ? '' : `: did you mean --${near}?`
  return new InputError(`Unknown flag ${option}${suggestion} (${help})`)
}

function flagHelp(inputs: InputSpec[], renames: Record<string, string> = {}): string {
  const shortOf = (name: string): string => {
    const short = Object.entries({ ...SHORT, ...renames }).find(
      ([key, long]) => long === name && key.length === 1
    )?.[0]
    return short === undefined ? '' : `-${short}, `
  }
  return inputs
    .map((i) => {
      const arg = BOOLEANS.has(i.name) ? '' : ` ${i.arg ?? 'VALUE'}`
      const dflt = i.default !== undefined ? ` (default: ${i.default})` : ''
      return `  ${shortOf(i.name)}--${i.name}${arg}\n      ${(i.flag ?? i.description).replaceAll('`', '')}${dflt}`
    })
    .join('\n')
}

const EXIT_CODES = `Exit codes: 0 ready, 1 not ready (failed or pending), 2 bad input or usage, 3 cluster access.
monitor exits 1 as --fail-on says: degraded (default), any or never.`

export function usage(): string {
  const verbs = VERBS.map((v) => `  ${v.name.padEnd(9)}${v.summary}`).join('\n')
  return `route-gate ${TOOL_VERSION}: gate deployments on Gateway API Route status

Usage:
  route-gate <command> [flags]
  route-gate <command> --help | route-gate help <command>
  route-gate --help | --version

Commands:
${verbs}

Flags (each command takes the ones its help lists):
${flagHelp(CLI_INPUTS)}

${EXIT_CODES}
`
}

export function verbUsage(verb: Verb): string {
  return `route-gate ${verb.name}: ${verb.summary}

Usage:
${verb.usage.map((u) => `  route-gate ${u}`).join('\n')}

Flags:
${flagHelp(
  CLI_INPUTS.filter((i) => verb.takes(i.name)),
  verb.renames
)}
${verb.verdicts === undefined ? '' : `\n${verb.verdicts}\n`}
${EXIT_CODES}
`
}
