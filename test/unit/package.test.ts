// The npm package as a stranger gets it: `npm pack`, then install the tarball into an empty directory
// outside the clone and run `npx route-gate` there on Node 24. dist/ is a self-contained bundle, so
// the package declares no runtime dependencies and installs offline, with nothing beside itself.
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO } from '../helpers/action.ts'

const run = promisify(execFile)
const pkg = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as {
  version: string
  dependencies?: Record<string, string>
  private?: boolean
}

// npm and the route-gate bin start `node` from PATH: put the Node running this suite (24) first
const env = {
  ...process.env,
  PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false'
}

let work: string
let packed: string[]
let installDir: string

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', args, { cwd, env, timeout: 120_000 })
  return stdout
}

async function npx(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npx', ['--offline', 'route-gate', ...args], {
      cwd: installDir,
      env,
      timeout: 60_000
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'route-gate-pack-'))
  const [result] = JSON.parse(
    await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], REPO)
  ) as [{ filename: string; files: { path: string }[] }]
  packed = result.files.map((f) => f.path)
  installDir = path.join(work, 'user')
  await mkdir(installDir)
  await npm(['init', '-y'], installDir)
  await npm(['install', '--offline', path.join(work, result.filename)], installDir)
}, 180_000)

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true })
})

describe('the npm package', () => {
  it('is publishable and declares no runtime dependencies (dist/ bundles them)', () => {
    expect(pkg.private).toBeUndefined()
    expect(pkg.dependencies ?? {}).toEqual({})
  })

  it('ships the bundle, the Action, the docs, README and LICENSE, and no tests or sources', () => {
    for (const file of [
      'dist/cli.js',
      'dist/index.js',
      'dist/licenses.txt',
      'action.yml',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'SECURITY.md',
      'docs/report.schema.json',
      'package.json'
    ])
      expect(packed, file).toContain(file)
    expect(packed.filter((f) => /^(test|src|scripts|bench|\.github|\.ci)\//.test(f))).toEqual([])
    expect(packed.filter((f) => f.startsWith('docs/notes/'))).toEqual([])
  })

  it('installs offline from the tarball with nothing beside itself', async () => {
    const modules = (await readdir(path.join(installDir, 'node_modules'))).filter(
      (d) => !d.startsWith('.')
    )
    expect(modules).toEqual(['route-gate'])
  })

  it('runs `npx route-gate --version` on Node 24', async () => {
    const { stdout: node } = await run('node', ['--version'], { env })
    expect(node).toMatch(/^v24\./)
    const result = await npx(['--version'])
    expect(result).toMatchObject({ code: 0, stderr: '' })
    expect(result.stdout.trim()).toBe(pkg.version)
  })

  it('runs `npx route-gate --help`', async () => {
    const result = await npx(['--help'])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(`route-gate ${pkg.version}`)
    expect(result.stdout).toMatch(/Commands:[\s\S]*  check +read-only/)
  })

  it('loads every bundled chunk from the install without any other package', async () => {
    const dist = path.join(installDir, 'node_modules', 'route-gate', 'dist')
    const chunks = (await readdir(path.join(dist, 'chunks'))).filter((f) => f.endsWith('.js'))
    expect(chunks.length).toBeGreaterThan(3)
    const probe = path.join(installDir, 'probe.mjs')
    await writeFile(
      probe,
      chunks.map((c) => `await import(${JSON.stringify(path.join(dist, 'chunks', c))})`).join('\n')
    )
    await expect(
      run(process.execPath, [probe], { cwd: installDir, env, timeout: 60_000 })
    ).resolves.toMatchObject({ stderr: '' })
  })
})
