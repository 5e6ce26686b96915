// What a CLI command does once its arguments are read: the run, the report file and the report on
// stdout. One module, imported whole when a command runs, so that a snapshot loads its code in a few
// files; only what needs the cluster client or the yaml package (dump, -o yaml) is imported apart.
import type { KubeClusterClient } from '../cluster/client.ts'
import { checkRegularFile, writeUserFile } from '../read/files.ts'
import type { Settings } from '../inputs/settings.ts'
import type { AnyReport } from '../model/types.ts'
import { neutralizeWorkflowCommands, safeLogLine } from '../report/escape.ts'
import { publicReport, renderJson } from '../report/json.ts'
import { renderSummary } from '../report/summary.ts'
import { renderText } from '../report/terminal.ts'
import { run, runExitCode } from '../jobs/run.ts'

type Render = (report: AnyReport) => string

async function loadRenderer(settings: Settings): Promise<Render> {
  if (settings.format === 'json') return renderJson
  if (settings.format === 'yaml') return (await import('../report/yaml.ts')).renderYaml
  if (settings.format === 'markdown') return renderSummary
  const color = process.stdout.isTTY === true && !process.env.NO_COLOR
  return (report) => renderText(report, { color })
}

/**
 * Under GitHub Actions the CLI's stdout is the job log: each credential is masked there as the
 * Action masks it (@actions/core's setSecret: an add-mask command, its value escaped the same way),
 * before anything could print it.
 */
function maskInJobLog(env: NodeJS.ProcessEnv): (secret: string) => void {
  if (env.GITHUB_ACTIONS !== 'true') return () => {}
  return (secret) => {
    const value = secret.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
    process.stdout.write(`::add-mask::${value}\n`)
  }
}

/** The cluster of --kubeconfig (a path) and --context, as kubectl reads them. */
async function connect(s: Settings): Promise<KubeClusterClient> {
  // as kubectl reads --kubeconfig: that file alone, which must be there
  if (s.kubeconfigFile !== undefined) {
    checkRegularFile(s.kubeconfigFile, `Invalid kubeconfig "${s.kubeconfigFile}"`)
  }
  return (await import('../cluster/connect.ts')).connect({
    context: s.context,
    env:
      s.kubeconfigFile === undefined
        ? process.env
        : { ...process.env, KUBECONFIG: s.kubeconfigFile },
    mask: maskInJobLog(process.env)
  })
}

function anyNotFound(report: AnyReport): boolean {
  return report.routes.some((r) => r.problems?.some((p) => p.reason === 'RouteNotFound'))
}

/** Runs the command the settings name and prints its report; the exit code. */
export async function runCommand(settings: Settings): Promise<number> {
  if (settings.command === 'dump') {
    const { runDump } = await import('../jobs/dump.ts')
    await runDump(settings, { connect, cwd: process.cwd(), now: Date.now, stdout: process.stdout })
    return 0
  }
  const renderer = loadRenderer(settings)
  // handled here too, so that a run that fails first does not leave it rejected and unhandled
  renderer.catch(() => {})
  const report = await run(settings, {
    connect,
    log: (line) => process.stderr.write(`${safeLogLine(line)}\n`),
    cwd: process.cwd(),
    now: Date.now
  })
  if (settings.reportFile !== undefined) {
    await writeUserFile(settings.reportFile, renderJson(report) + '\n', 'report-file')
  }
  const render = await renderer
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
}
