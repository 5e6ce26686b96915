// Hostile text of 1 MB (issue 35): the escaping every output goes through, and the committed Action
// bundle given a pull request whose Route is named with it. Each is timed against the same work on
// harmless text of the same size in the same run, so a quadratic pattern shows as a ratio, whatever
// the machine's load.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { stripControl } from '../src/model/plain-text.ts'
import {
  escapeHtml,
  escapeMarkdownInline,
  fencedCode,
  safeLogLine,
  safeOutputValue
} from '../src/report/escape.ts'
import { expectExit } from './context.ts'
import { launch, type Finished } from './process.ts'
import { median, type Budget } from './report.ts'

const SIZE = 1 << 20
const RUNS = 5

/** The runs that made each escaper quadratic, `size` characters of each. */
const HOSTILE: ((size: number) => string)[] = [
  (size) => '\u009d'.repeat(size),
  (size) => `${'\n'.repeat(size)}::error::x`,
  (size) => `${' \n'.repeat(size / 2)}  ::add-mask::x`,
  (size) => '\u001b['.repeat(size / 2)
]

const ESCAPERS = [
  stripControl,
  safeLogLine,
  safeOutputValue,
  escapeMarkdownInline,
  escapeHtml,
  (text: string) => fencedCode(text)
]

function bestOf(work: () => void): number {
  let best = Infinity
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now()
    work()
    best = Math.min(best, performance.now() - start)
  }
  return Math.max(best, 0.1)
}

/**
 * Every escaper on each hostile run at 1 MB and at an eighth of that: linear work takes 8 times as
 * long for 8 times the text, a quadratic pattern 64 times. The slowest kind is the figure.
 */
function escapingBudget(log: (line: string) => void): Budget {
  let worst = { ratio: 0, large: 0, small: 0 }
  for (const make of HOSTILE) {
    const time = (size: number): number => {
      const text = make(size)
      return bestOf(() => ESCAPERS.forEach((escape) => escape(text)))
    }
    const small = time(SIZE / 8)
    const large = time(SIZE)
    if (large / small > worst.ratio) worst = { ratio: large / small, large, small }
  }
  log(
    `escaping 1 MB of hostile text: ${worst.large.toFixed(1)} ms, ×${worst.ratio.toFixed(2)} of 128 KB`
  )
  return {
    name: `every escaper on 1 MB of hostile text, against 128 KB of it (the slowest of ${HOSTILE.length} kinds, best of ${RUNS}; linear is 8×, quadratic 64×)`,
    measured: `${worst.large.toFixed(1)} ms`,
    peer: `${worst.small.toFixed(1)} ms (128 KB)`,
    ratio: worst.ratio,
    limit: '≤ 16.0×',
    ok: worst.ratio <= 16
  }
}

function route(name: string): string {
  return `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: ${JSON.stringify(name)}
  namespace: shop
spec:
  parentRefs: [{name: edge, namespace: infra}]
`
}

/** The Action bundle, in predict mode against the shipped dump: `INPUT_*` and the runner's files. */
async function runAction(
  repo: string,
  dir: string,
  manifest: string,
  code: number
): Promise<Finished> {
  await writeFile(path.join(dir, 'output'), '')
  await writeFile(path.join(dir, 'summary'), '')
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: dir,
    RUNNER_TEMP: dir,
    GITHUB_OUTPUT: path.join(dir, 'output'),
    GITHUB_STEP_SUMMARY: path.join(dir, 'summary'),
    INPUT_MODE: 'predict',
    INPUT_MANIFESTS: manifest,
    'INPUT_CLUSTER-SNAPSHOT': path.join(repo, 'examples', 'cluster-dump.yaml')
  }
  const action = path.join(repo, 'dist', 'index.js')
  return expectExit(
    launch(process.execPath, [action], { env, cwd: dir }).finished,
    code,
    'the Action'
  )
}

async function actionBudget(
  repo: string,
  home: string,
  log: (line: string) => void
): Promise<Budget> {
  const dir = path.join(home, 'hostile-text')
  await mkdir(dir, { recursive: true })
  await writeFile(path.join(dir, 'hostile.yaml'), route(`web${'\u009d\n::'.repeat(SIZE / 4)}`))
  // as long a name of plain letters, refused alike: what the hostile characters add
  await writeFile(path.join(dir, 'harmless.yaml'), route(`web${'a'.repeat(SIZE)}`))
  const times = { hostile: [] as number[], harmless: [] as number[] }
  for (let i = 0; i < RUNS + 1; i++) {
    const hostile = await runAction(repo, dir, 'hostile.yaml', 2)
    const harmless = await runAction(repo, dir, 'harmless.yaml', 2)
    // the first pair fills the compile cache
    if (i === 0) continue
    times.hostile.push(hostile.cpuMs)
    times.harmless.push(harmless.cpuMs)
  }
  const hostile = median(times.hostile)
  const harmless = median(times.harmless)
  log(`the Action on a 1 MB hostile name: ${hostile} ms CPU, harmless ${harmless} ms`)
  return {
    name: `the Action (predict) on a Route named with 1 MB of hostile text, refused at exit 2 (CPU, median of ${RUNS})`,
    measured: `${Math.round(hostile)} ms`,
    peer: `${Math.round(harmless)} ms (a name of 1 MB of plain letters)`,
    ratio: hostile / harmless,
    // parsing hostile escapes costs about twice plain letters; a quadratic step would cost hundreds
    limit: '≤ 3.0×',
    ok: hostile / harmless <= 3
  }
}

export async function measureHostileText(
  repo: string,
  home: string,
  log: (line: string) => void
): Promise<Budget[]> {
  return [escapingBudget(log), await actionBudget(repo, home, log)]
}
