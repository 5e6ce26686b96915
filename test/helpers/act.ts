// Runs workflow files through a real workflow runner: nektos/act (built by test/cluster/build-binaries.sh
// into the shared cache) on this host (`-P ubuntu-latest=-self-hosted`, no Docker), with the npm
// node@24 first on PATH so `runs.using: node24` runs Node 24. The workflow runs in a fresh git
// repository holding action.yml, the committed dist/ and the test's files, so `uses: ./` is the
// Action as a user's workflow would run it. `actions/checkout` of the workflow's own repository is
// done by act itself (it copies the work tree), so nothing is fetched from GitHub.
import { execFile, spawn } from 'node:child_process'
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { REPO } from './action.ts'
import { cachedTool } from './cached-tools.ts'

const run = promisify(execFile)

export interface StepResult {
  /** the step's name as act prints it (its `name:`, else its `uses:` or `run:`) */
  name: string
  id: string
  result?: 'success' | 'failure' | 'skipped'
  /** `exit status N` of a failed step */
  exitStatus?: number
  /** what the step printed (not workflow commands) */
  log: string
  /** the step's job summary, as act reads it after the step */
  summary: string
  outputs: Record<string, string>
  /** ::error / ::warning commands the step issued */
  annotations: { level: string; message: string; properties: Record<string, string> }[]
}

export interface WorkflowRun {
  code: number | null
  jobResult?: string
  steps: StepResult[]
  /** act's whole log (JSON lines), for assertion messages */
  raw: string
  elapsedMs: number
}

interface ActLine {
  msg?: string
  step?: string
  stepID?: string[]
  stepResult?: StepResult['result']
  raw_output?: boolean
  command?: string
  arg?: string
  name?: string
  content?: string
  kvPairs?: Record<string, string>
  jobResult?: string
  level?: string
}

function parse(raw: string): Pick<WorkflowRun, 'steps' | 'jobResult'> {
  const steps = new Map<string, StepResult>()
  let jobResult: string | undefined
  for (const text of raw.split('\n')) {
    if (!text.startsWith('{')) continue
    const line = JSON.parse(text) as ActLine
    if (line.jobResult !== undefined) jobResult = line.jobResult
    const id = line.stepID?.[0]
    if (id === undefined || line.step === undefined) continue
    let step = steps.get(id)
    if (step === undefined) {
      step = { name: line.step, id, log: '', summary: '', outputs: {}, annotations: [] }
      steps.set(id, step)
    }
    if (line.stepResult !== undefined) step.result = line.stepResult
    if (line.raw_output === true) step.log += line.msg ?? ''
    const exit = /^exit status (\d+)$/.exec(line.msg ?? '')
    if (exit) step.exitStatus = Number(exit[1])
    if (line.command === 'summary') step.summary += line.content ?? ''
    if (line.command === 'set-output' && line.name !== undefined) {
      step.outputs[line.name] = line.arg ?? ''
    }
    if (line.command === 'error' || line.command === 'warning') {
      step.annotations.push({
        level: line.command,
        message: line.arg ?? '',
        properties: line.kvPairs ?? {}
      })
    }
  }
  return { steps: [...steps.values()], jobResult }
}

export interface WorkflowOptions {
  /** the workflow file's text */
  workflow: string
  /** more files of the repository (manifests), by relative path */
  files?: Record<string, string>
  event?: { name: string; payload: unknown }
  /** variables for the job (GITHUB_API_URL among them, which act otherwise sets to github.com) */
  env?: Record<string, string>
  secrets?: Record<string, string>
}

/** Runs one workflow file through act and returns what each step did. */
export async function runWorkflow(options: WorkflowOptions): Promise<WorkflowRun> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-act-'))
  const repo = path.join(dir, 'repo')
  await mkdir(path.join(repo, '.github', 'workflows'), { recursive: true })
  await cp(path.join(REPO, 'action.yml'), path.join(repo, 'action.yml'))
  await cp(path.join(REPO, 'dist'), path.join(repo, 'dist'), { recursive: true })
  await writeFile(path.join(repo, '.github', 'workflows', 'test.yml'), options.workflow)
  for (const [name, text] of Object.entries(options.files ?? {})) {
    await mkdir(path.dirname(path.join(repo, name)), { recursive: true })
    await writeFile(path.join(repo, name), text)
  }
  // act reads the repository's name from its origin remote and the commit from HEAD
  const git = (...args: string[]) =>
    run('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: repo })
  await git('init', '-q', '-b', 'main')
  await git('remote', 'add', 'origin', 'https://github.com/acme/shop.git')
  await git('add', '-A')
  await git('commit', '-qm', 'test')

  const event = options.event ?? { name: 'push', payload: {} }
  const eventFile = path.join(dir, 'event.json')
  await writeFile(eventFile, JSON.stringify(event.payload))
  const args = [
    event.name,
    '--eventpath',
    eventFile,
    '-W',
    '.github/workflows/test.yml',
    '-P',
    'ubuntu-latest=-self-hosted',
    '--json',
    // act's cache server would listen on the machine's external address
    '--no-cache-server',
    '--action-cache-path',
    path.join(dir, 'act-cache'),
    ...Object.entries(options.env ?? {}).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
    ...Object.entries(options.secrets ?? {}).flatMap(([k, v]) => ['-s', `${k}=${v}`])
  ]
  const binary = await cachedTool('act')
  const started = Date.now()
  try {
    return await actRun(binary, args, repo, started)
  } finally {
    // everything the run left (workspace copy, act's host executor dirs) is in dir
    await rm(dir, { recursive: true, force: true })
  }
}

function actRun(
  binary: string,
  args: string[],
  repo: string,
  started: number
): Promise<WorkflowRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      cwd: repo,
      env: {
        // the npm node@24 (this process) first: act runs node24 actions with the `node` on PATH
        PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`,
        HOME: process.env.HOME,
        KUBECONFIG: process.env.KUBECONFIG
      },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let raw = ''
    child.stdout.on('data', (d: Buffer) => (raw += d.toString()))
    child.stderr.on('data', (d: Buffer) => (raw += d.toString()))
    child.on('error', reject)
    child.on('close', (code) =>
      resolve({ code, raw, elapsedMs: Date.now() - started, ...parse(raw) })
    )
  })
}

/** The step with this id (`id:` in the workflow), failing loudly when act did not run it. */
export function step(run: WorkflowRun, id: string): StepResult {
  const found = run.steps.find((s) => s.id === id)
  if (found === undefined) throw new Error(`no step ${id} in the run:\n${run.raw}`)
  return found
}

/** What a later step printed as name=value lines (the Action's outputs as a workflow sees them). */
export function stepValues(run: WorkflowRun, id: string): Record<string, string> {
  return Object.fromEntries(
    step(run, id)
      .log.split('\n')
      .map((l) => /^([a-z-]+)=(.*)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1]!, m[2]!])
  )
}
