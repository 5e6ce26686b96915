// The route-gate command line: the same settings parser, run and report as the Action, printed as
// text, JSON, YAML or Markdown. Progress goes to stderr so that stdout carries only the report.
// Only the argument parsing is loaded up front: the run (YAML parsers, diagnosis), the cluster
// client and the renderers are imported when a command needs them, so --version, --help and a
// usage error start as fast as Node does, and a snapshot never loads the cluster client.
import { parseCommandLine, usage } from './cli-verbs.ts'
import { exitCodeOf } from './errors.ts'
import { parseSettings, type Settings } from './inputs.ts'
import type { KubeClusterClient } from './cluster/client.ts'
import type { AnyReport } from './model/types.ts'
import { neutralizeWorkflowCommands, safeLogLine } from './report/escape.ts'

type Render = (report: AnyReport) => string

/** The chosen renderer, loaded while the run goes on so that printing the verdict waits for nothing. */
async function loadRenderer(settings: Settings): Promise<Render> {
  if (settings.format === 'json') return (await import('./report/json.ts')).renderJson
  if (settings.format === 'yaml') return (await import('./report/yaml.ts')).renderYaml
  if (settings.format === 'markdown') return (await import('./report/summary.ts')).renderSummary
  const color = process.stdout.isTTY === true && !process.env.NO_COLOR
  const { renderText } = await import('./report/terminal.ts')
  return (report) => renderText(report, { color })
}

/** The cluster of --kubeconfig (a path) and --context, as kubectl reads them. */
async function connect(s: Settings): Promise<KubeClusterClient> {
  if (s.kubeconfigFile !== undefined) {
    // as kubectl reads --kubeconfig: that file alone, which must be there
    const { checkRegularFile } = await import('./files.ts')
    checkRegularFile(s.kubeconfigFile, `Invalid kubeconfig "${s.kubeconfigFile}"`)
  }
  return (await import('./cluster/connect.ts')).connect({
    context: s.context,
    env:
      s.kubeconfigFile === undefined
        ? process.env
        : { ...process.env, KUBECONFIG: s.kubeconfigFile },
    mask: () => {}
  })
}

function anyNotFound(report: AnyReport): boolean {
  return report.routes.some((r) => r.problems?.some((p) => p.reason === 'RouteNotFound'))
}

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
    if (settings.command === 'dump') {
      const { runDump } = await import('./dump.ts')
      await runDump(settings, {
        connect,
        cwd: process.cwd(),
        now: Date.now,
        stdout: process.stdout
      })
      return 0
    }
    const renderer = loadRenderer(settings)
    // every report is made public before it is rendered: loaded alongside, not after the run
    const json = import('./report/json.ts')
    // handled here too, so that a run that fails first does not leave them rejected and unhandled
    renderer.catch(() => {})
    json.catch(() => {})
    const { run, runExitCode } = await import('./run.ts')
    const report = await run(settings, {
      connect,
      log: (line) => process.stderr.write(`${safeLogLine(line)}\n`),
      cwd: process.cwd(),
      now: Date.now
    })
    if (settings.reportFile !== undefined) {
      const [{ writeUserFile }, { renderJson }] = await Promise.all([import('./files.ts'), json])
      await writeUserFile(settings.reportFile, renderJson(report) + '\n', 'report-file')
    }
    const render = await renderer
    const { publicReport } = await json
    // stdout may be a workflow log: parts made safe one by one must not join into a command; what
    // traffic-show-body keeps goes to the report file alone
    process.stdout.write(neutralizeWorkflowCommands(render(publicReport(report))) + '\n')
    if (!settings.applyManifests && settings.manifests.length > 0 && anyNotFound(report)) {
      // check --manifests applied them before apply existed: say where that went
      process.stderr.write(
        'route-gate: check never writes to the cluster, so Routes only in --manifests are not found; route-gate apply creates them\n'
      )
    }
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
