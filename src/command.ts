// The route-gate command line: the same settings parser, run and report as the Action, printed as
// text, JSON or Markdown. Progress goes to stderr so that stdout carries only the report.
// Only the argument parsing is loaded up front: the run (YAML parsers, diagnosis), the cluster
// client and the renderers are imported when a command needs them, so --version, --help and a
// usage error start as fast as Node does, and a snapshot never loads the cluster client.
import { exitCodeOf, InputError } from './errors.ts'
import { INPUTS, parseSettings, type Settings } from './inputs.ts'
import type { Report } from './model/types.ts'
import { neutralizeWorkflowCommands, safeLogLine } from './report/escape.ts'
import { TOOL_VERSION } from './version.ts'

const FLAGS = INPUTS.filter((i) => i.actionOnly !== true)
const BOOLEAN_FLAGS = new Set(
  FLAGS.filter((i) => i.default === 'true' || i.default === 'false').map((i) => i.name)
)
const LIST_FLAGS = new Set(['manifests', 'routes'])

export function usage(): string {
  const flags = FLAGS.map((i) => {
    const arg = BOOLEAN_FLAGS.has(i.name) ? '' : ' <value>'
    const dflt = i.default !== undefined ? ` (default: ${i.default})` : ''
    return `  --${i.name}${arg}\n      ${i.description.replaceAll('`', '')}${dflt}`
  }).join('\n')
  return `route-gate ${TOOL_VERSION}: gate deployments on Gateway API Route status

Usage:
  route-gate check [flags]                    apply or locate Routes and wait until every parent is ready
  route-gate check --from-file DUMP [flags]   judge a saved dump, no cluster, no waiting
  route-gate monitor [flags]                  judge every Route in scope and report what changed
                                              since --previous (a former report); --watch-duration
                                              keeps watching and logs each change as it happens
  route-gate --help | --version

Flags:
${flags}

Exit codes: 0 ready, 1 not ready (failed or pending), 2 bad input or usage, 3 cluster access.
monitor exits 1 as --fail-on says: degraded (default), any or never.
`
}

/** Turns argv into input values keyed by input name; repeated list flags accumulate. */
export function parseArgs(argv: string[]): { command: string; values: Map<string, string> } {
  const [command = '', ...rest] = argv
  const values = new Map<string, string>()
  const known = new Set(FLAGS.map((i) => i.name))
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg)
    if (!match) throw new InputError(`Unexpected argument "${arg}": flags look like --name value`)
    const name = match[1]!
    if (!known.has(name)) throw new InputError(`Unknown flag --${name}: see route-gate --help`)
    let value = match[2]
    if (value === undefined) {
      const next = rest[i + 1]
      if (BOOLEAN_FLAGS.has(name) && (next === undefined || next.startsWith('--'))) value = 'true'
      else if (next === undefined) throw new InputError(`Flag --${name} needs a value`)
      else value = rest[++i]!
    }
    const previous = values.get(name)
    if (previous !== undefined && !LIST_FLAGS.has(name)) {
      throw new InputError(`Flag --${name} is given twice`)
    }
    values.set(name, previous === undefined ? value : `${previous}\n${value}`)
  }
  return { command, values }
}

type Render = (report: Report) => string

/** The chosen renderer, loaded while the run goes on so that printing the verdict waits for nothing. */
async function loadRenderer(settings: Settings): Promise<Render> {
  if (settings.format === 'json') return (await import('./report/json.ts')).renderJson
  if (settings.format === 'markdown') return (await import('./report/summary.ts')).renderSummary
  const color = process.stdout.isTTY === true && !process.env.NO_COLOR
  const { renderText } = await import('./report/text.ts')
  return (report) => renderText(report, { color })
}

export async function main(argv: string[]): Promise<number> {
  try {
    if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
      process.stdout.write(usage())
      return argv.length === 0 ? 2 : 0
    }
    const { command, values } = parseArgs(argv)
    if (command !== 'check' && command !== 'monitor') {
      throw new InputError(
        `Unknown command "${command}": use route-gate check or route-gate monitor (see --help)`
      )
    }
    if (values.has('help')) {
      process.stdout.write(usage())
      return 0
    }
    const settings = parseSettings(
      (name) => values.get(name),
      command === 'monitor' ? 'monitor' : 'gate'
    )
    const renderer = loadRenderer(settings)
    // handled here too, so that a run that fails first does not leave it rejected and unhandled
    renderer.catch(() => {})
    const { run, runExitCode } = await import('./run.ts')
    const report = await run(settings, {
      connect: async (s) =>
        (await import('./cluster/connect.ts')).connect({
          kubeconfig: s.kubeconfig,
          context: s.context,
          env: process.env,
          mask: () => {}
        }),
      log: (line) => process.stderr.write(`${safeLogLine(line)}\n`),
      cwd: process.cwd(),
      now: Date.now
    })
    if (settings.reportFile !== undefined) {
      const [{ writeUserFile }, { renderJson }] = await Promise.all([
        import('./files.ts'),
        import('./report/json.ts')
      ])
      await writeUserFile(settings.reportFile, renderJson(report) + '\n', 'report-file')
    }
    const render = await renderer
    const { publicReport } = await import('./report/json.ts')
    // stdout may be a workflow log: parts made safe one by one must not join into a command; what
    // traffic-show-body keeps goes to the report file alone
    process.stdout.write(neutralizeWorkflowCommands(render(publicReport(report))) + '\n')
    return runExitCode(report, settings)
  } catch (error) {
    const code = exitCodeOf(error)
    const message = error instanceof Error ? error.message : String(error)
    process.stderr.write(`${safeLogLine(`route-gate: ${message}`)}\n`)
    if (code === 1 && process.env.ROUTE_GATE_DEBUG && error instanceof Error) {
      process.stderr.write(`${error.stack ?? ''}\n`)
    }
    return code
  }
}
