// Runs the committed bundles the way their users do: dist/index.js as GitHub's runner starts it
// (INPUT_*, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP), and dist/cli.js as a command.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO = fileURLToPath(new URL('../..', import.meta.url))
const ACTION = path.join(REPO, 'dist', 'index.js')
const CLI = path.join(REPO, 'dist', 'cli.js')

export interface ProcessResult {
  code: number | null
  stdout: string
  stderr: string
  elapsedMs: number
}

export interface ActionResult extends ProcessResult {
  outputs: Record<string, string>
  summary: string
  runnerTemp: string
}

// Only what a runner sets, plus what the test passes: nothing of the developer's environment leaks in.
function baseEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME }
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v
  return env
}

/** How a bundle is started; `node` is the Node executable (default: the one running the tests). */
interface RunOptions {
  env?: Record<string, string | undefined>
  cwd?: string
  node?: string
  /** a command the bundle runs under, e.g. ip netns exec NAME (the guard tests' isolated runner) */
  prefix?: string[]
  /** hears the standard error so far, whenever more arrives (the CLI's progress lines) */
  onStderr?: (soFar: string) => void
}

function runProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: RunOptions & { input?: string; onStdout?: (soFar: string) => void } = {}
): Promise<ProcessResult> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const [command = '', ...rest] = [
      ...(options.prefix ?? []),
      options.node ?? process.execPath,
      ...args
    ]
    const child = spawn(command, rest, { env, cwd: options.cwd ?? REPO })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
      options.onStdout?.(stdout)
    })
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString()
      options.onStderr?.(stderr)
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr, elapsedMs: Date.now() - started }))
    child.stdin.end(options.input ?? '')
  })
}

/** Parses GITHUB_OUTPUT's `name<<DELIMITER` blocks as the runner does. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i]!)
    if (!m) continue
    const value: string[] = []
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]!)
    outputs[m[1]!] = value.join('\n')
  }
  return outputs
}

export async function runAction(
  inputs: Record<string, string>,
  options: RunOptions & {
    /** called with the whole log so far whenever more arrives, to wait for a line */
    onStdout?: (soFar: string) => void
  } = {}
): Promise<ActionResult> {
  const runnerTemp = await mkdtemp(path.join(os.tmpdir(), 'route-gate-runner-'))
  const outputFile = path.join(runnerTemp, 'output')
  const summaryFile = path.join(runnerTemp, 'summary')
  await writeFile(outputFile, '')
  await writeFile(summaryFile, '')
  const inputEnv = Object.fromEntries(
    Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])
  )
  const env = baseEnv({
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_WORKSPACE: options.cwd ?? REPO,
    RUNNER_TEMP: runnerTemp,
    ...inputEnv,
    ...options.env
  })
  const result = await runProcess([ACTION], env, options)
  return {
    ...result,
    outputs: parseOutputFile(await readFile(outputFile, 'utf8')),
    summary: await readFile(summaryFile, 'utf8'),
    runnerTemp
  }
}

export function runCli(
  args: string[],
  options: RunOptions & { input?: string } = {}
): Promise<ProcessResult> {
  return runProcess([CLI, ...args], baseEnv(options.env ?? {}), options)
}
