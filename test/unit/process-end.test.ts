// How a run ends once its verdict is out: the exit code carries the verdict even when nobody reads
// the output any more, and the V8 compilers that can hang Node 24's exit are off (the committed
// dist/ and the start-up module, run as separate processes).
import { execFileSync, spawn } from 'node:child_process'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

import { REPO } from '../helpers/action.ts'

const CLI = path.join(REPO, 'dist', 'cli.js')

/** The CLI with its stdout closed by the reader before it writes anything, as `| head -0` does. */
async function runUnread(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: REPO,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  child.stdout.destroy()
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  return { code, stderr }
}

describe('a reader that goes away', () => {
  it.each([
    { what: '--help', args: ['--help'], code: 0 },
    {
      what: 'a snapshot',
      args: ['check', '--from-file', 'examples/cluster-dump.yaml', '--format', 'json'],
      code: 1
    }
  ])('$what exits $code without a stack trace', async ({ args, code }) => {
    const result = await runUnread(args)
    expect(result.stderr).not.toMatch(/EPIPE|Error|\n\s+at /)
    expect(result.code).toBe(code)
  })
})

describe('the compilers that can hang the exit', () => {
  // Maglev's optimization of a hot function, as V8's own status bits report it (bit 5: Maglev
  // code), with and without the start-up.
  function maglevStatus(withStartUp: boolean): number {
    const startUp = pathToFileURL(path.join(REPO, 'src', 'start-up.ts')).href
    const script = [
      `const { startUp } = await import(${JSON.stringify(startUp)})`,
      withStartUp ? `startUp('cli')` : '',
      'function hot(x) { return x + 1 }',
      '%PrepareFunctionForOptimization(hot); hot(1); hot(2);',
      '%OptimizeMaglevOnNextCall(hot); hot(3);',
      'process.stdout.write(String(%GetOptimizationStatus(hot)))'
    ].join('\n')
    const out = execFileSync(
      process.execPath,
      ['--allow-natives-syntax', '--input-type=module', '-e', script],
      { cwd: REPO, encoding: 'utf8' }
    )
    return Number(out)
  }
  const MAGLEV_CODE = 1 << 5

  it('Maglev optimizes a hot function in plain Node, and no longer after the start-up', () => {
    expect(maglevStatus(false) & MAGLEV_CODE).toBe(MAGLEV_CODE)
    expect(maglevStatus(true) & MAGLEV_CODE).toBe(0)
  })
})
