// The GitHub Action: inputs from INPUT_*, the run, then outputs, job summary, annotations and the
// step's result. A user's mistake or a cluster problem ends as one clear error line, never a stack.
// The cluster client and the GitHub client are imported only when the run needs them.
import { randomUUID } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import * as core from '@actions/core'
import { exitCodeOf } from '../runtime/errors.ts'
import { writeUserFile } from '../read/files.ts'
import { parseSettings } from '../inputs/parse.ts'
import type { Settings } from '../inputs/settings.ts'
import type { AnyReport, Report } from '../model/types.ts'
import { monitorFailureMessage } from '../jobs/monitor.ts'
import { failureMessage, notReadyRoutes } from '../jobs/outcome.ts'
import { buildAnnotations } from '../report/annotations.ts'
import { escapeHtml, safeLogLine, safeOutputValue } from '../report/escape.ts'
import { publicReport, reportForOutput } from '../report/json.ts'
import { sourceLinksFrom } from '../report/source-link.ts'
import { renderSummary } from '../report/summary.ts'
import { run, runExitCode } from '../jobs/run.ts'

// GitHub allows 1 MB of outputs per job; leave room for the other outputs and other steps.
const REPORT_OUTPUT_MAX_CHARS = 256 * 1024

type Conversations = typeof import('../github/conversations.ts')
const conversations = (): Promise<Conversations> => import('../github/conversations.ts')

export async function runAction(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let settings: Settings | undefined
  try {
    settings = parseSettings((name) => core.getInput(name))
    const config = settings
    const monitor = config.command === 'monitor'
    const logger = {
      info: (m: string) => core.info(safeLogLine(m)),
      warning: (m: string) => core.warning(safeLogLine(m))
    }
    const tracking =
      monitor && config.fromFile === undefined
        ? await (await conversations()).openTracking(config, env, logger)
        : undefined
    const whole = await run(config, {
      connect: async (s) => {
        return (await import('../cluster/connect.ts')).connect({
          kubeconfig: s.kubeconfig,
          context: s.context,
          env,
          mask: core.setSecret
        })
      },
      log: (line) => core.info(safeLogLine(line)),
      cwd: env.GITHUB_WORKSPACE ?? process.cwd(),
      now: Date.now,
      previous: tracking?.loaded?.previous
    })
    // the report file alone keeps what traffic-show-body adds; every other place shows the rest
    const reportFile = await writeReportFile(whole, config, env)
    const report = publicReport(whole)
    await publish(report, reportFile, config, env)
    const code = runExitCode(report, config)
    // only predict's reports carry `unknown`; the gate's and the monitor's are Report as they were
    const judged = report as Report
    const why = monitor ? monitorFailureMessage(judged, config.failOn) : failureMessage(report)
    if (code !== 0) core.setFailed(safeLogLine(`route-gate: ${why}`))
    if (config.command === 'gate' && config.comment) {
      await (await conversations()).commentOnPullRequest(config, judged, env, logger)
    }
    const issueError =
      tracking && (await (await conversations()).saveTracking(tracking, judged, logger))
    if (issueError !== undefined) {
      core.setFailed(safeLogLine(`route-gate: tracking issue: ${issueError}`))
      return 1
    }
    return code
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const code = exitCodeOf(error)
    if (code === 1)
      core.debug(safeLogLine(error instanceof Error ? (error.stack ?? message) : message))
    core.setFailed(safeLogLine(`route-gate: ${message}`))
    core.setOutput('verdict', 'error')
    core.setOutput('ready', 'false')
    if (settings?.summary !== false) {
      await writeSummary(`## ❌ route-gate could not run\n\n<pre>${escapeHtml(message)}</pre>\n`)
    }
    return code
  }
}

async function writeReportFile(
  report: AnyReport,
  settings: Settings,
  env: NodeJS.ProcessEnv
): Promise<string> {
  const reportFile =
    settings.reportFile ??
    path.join(env.RUNNER_TEMP ?? os.tmpdir(), `route-gate-report-${randomUUID()}.json`)
  await writeUserFile(reportFile, JSON.stringify(report, null, 2) + '\n', 'report-file')
  return reportFile
}

async function publish(
  report: AnyReport,
  reportFile: string,
  settings: Settings,
  env: NodeJS.ProcessEnv
): Promise<void> {
  core.setOutput('verdict', report.verdict)
  core.setOutput('ready', String(report.verdict === 'ready'))
  core.setOutput('failed-routes', safeOutputValue(notReadyRoutes(report).join(',')))
  core.setOutput('report', reportForOutput(report, REPORT_OUTPUT_MAX_CHARS))
  core.setOutput('report-file', reportFile)
  if (settings.summary)
    await writeSummary(renderSummary(report, { links: sourceLinksFrom(env), reportFile }))
  if (settings.annotations) {
    for (const a of buildAnnotations(report)) {
      const props = { title: a.title, file: a.file, startLine: a.startLine }
      if (a.level === 'error') core.error(a.message, props)
      else core.warning(a.message, props)
    }
  }
}

async function writeSummary(markdown: string): Promise<void> {
  try {
    await core.summary.addRaw(markdown).write()
  } catch (error) {
    // local runs and old GHES have no GITHUB_STEP_SUMMARY; the verdict must not depend on it
    core.warning(
      safeLogLine(
        `Could not write the job summary: ${error instanceof Error ? error.message : String(error)}`
      )
    )
  }
}
