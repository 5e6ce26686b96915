// The route-gate command line: the same settings parser, run and report as the Action, printed as
// text, JSON, YAML or Markdown. Progress goes to stderr so that stdout carries only the report.
// Only the argument parsing is loaded up front: --help and a usage error start as fast as Node does;
// the command itself (command-run.ts) is imported once the arguments hold.
import { parseCommandLine, usage } from './verbs.ts'
import { exitCodeOf } from '../runtime/errors.ts'
import { parseSettings } from '../inputs/parse.ts'
import { safeLogLine } from '../report/escape.ts'

export async function main(argv: string[]): Promise<number> {
  try {
    if (argv.length === 0) {
      process.stdout.write(usage())
      return 2
    }
    const parsed = parseCommandLine(argv)
    if ('help' in parsed) {
      process.stdout.write(parsed.help)
      return 0
    }
    const { verb, values } = parsed
    const settings = parseSettings((name) => values.get(name), verb.command, {
      apply: verb.apply,
      kubeconfig: 'path'
    })
    const { runCommand } = await import('./command-run.ts')
    return await runCommand(settings)
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
