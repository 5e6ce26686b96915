// The committed CLI bundle as a user runs it: flags, formats and exit codes, on the shipped example.
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { INPUTS } from '../../src/inputs/table.ts'
import type { Report } from '../../src/model/types.ts'
import { runCli } from '../helpers/action.ts'
import { expectValidReport } from '../helpers/schema.ts'

const EXAMPLE = 'examples/cluster-dump.yaml'

describe('route-gate check --from-file (snapshot)', () => {
  it('judges the shipped example: JSON report, exit 1, every kind of outcome present', async () => {
    const { code, stdout, stderr } = await runCli([
      'check',
      '--from-file',
      EXAMPLE,
      '--format',
      'json'
    ])
    expect(stderr).toBe('')
    expect(code).toBe(1)
    const report = JSON.parse(stdout) as Report
    expectValidReport(report)
    expect(report).toMatchObject({
      mode: 'snapshot',
      verdict: 'failed',
      counts: { routes: 8, ready: 2, failed: 4, pending: 2 }
    })
    const reasons = report.routes.flatMap((r) =>
      r.parents.flatMap((p) => p.problems.map((x) => `${r.name}:${x.reason}`))
    )
    expect(reasons).toEqual(
      expect.arrayContaining([
        'checkout:BackendNotFound',
        'reports:RefNotPermitted',
        'landing:NotAllowedByListeners',
        'admin:NoMatchingParent',
        'search:StaleStatus',
        'beta:NoStatus'
      ])
    )
    const pending = report.routes.filter((r) => r.verdict === 'pending')
    expect(
      pending.flatMap((r) => r.parents.flatMap((p) => p.problems.map((x) => x.severity)))
    ).not.toContain('error')
    expect(report.routes.find((r) => r.name === 'checkout')?.source).toEqual({
      file: EXAMPLE,
      line: 254
    })
  })

  it('measures stale status from the newest timestamp in the dump, never from the time of reading', async () => {
    const { stdout } = await runCli(['check', '--from-file', EXAMPLE, '--format', 'json'])
    const search = (JSON.parse(stdout) as Report).routes.find((r) => r.name === 'search')
    const evidence = search?.parents.flatMap((p) => p.problems.flatMap((x) => x.evidence ?? []))
    expect(evidence).toContain(
      'Accepted last changed at 2026-11-30T09:06:00Z, 1m 0s before the newest timestamp in the dump (2026-11-30T09:07:00.000Z).'
    )
    expect(evidence?.join(' ')).not.toContain('before now')
  })

  it('prints readable text with the fix, and no color when not on a terminal', async () => {
    const { code, stdout } = await runCli(['check', '--from-file', EXAMPLE])
    expect(code).toBe(1)
    expect(stdout).not.toContain('\u001b[')
    expect(stdout).toContain('HTTPRoute shop/checkout')
    expect(stdout).toMatch(/checkout-svc/)
    expect(stdout).toMatch(/kubectl label namespace marketing gateway-access=edge/)
    expect(stdout).toMatch(/kind: ReferenceGrant/)
  })

  it('renders Markdown like the job summary', async () => {
    const { stdout } = await runCli(['check', '--from-file', EXAMPLE, '--format', 'markdown'])
    expect(stdout).toMatch(/^#+ /m)
    expect(stdout).toContain('|')
    expect(stdout).toContain('BackendNotFound')
  })

  it('narrows the scope with routes, namespace and kinds; a ready scope exits 0', async () => {
    const ready = await runCli([
      'check',
      '--from-file',
      EXAMPLE,
      '--routes',
      'httproute/shop/storefront',
      '--routes',
      'grpcroute/payments/api'
    ])
    expect(ready.code).toBe(0)
    const grpc = await runCli([
      'check',
      '--from-file',
      EXAMPLE,
      '--kinds',
      'GRPCRoute',
      '--format',
      'json'
    ])
    expect((JSON.parse(grpc.stdout) as Report).counts.routes).toBe(1)
  })

  it('a Route named but absent from the dump fails as RouteNotFound, never a silent pass', async () => {
    const { code, stdout } = await runCli([
      'check',
      '--from-file',
      EXAMPLE,
      '--routes',
      'httproute/shop/storefront,httproute/shop/nope',
      '--format',
      'json'
    ])
    expect(code).toBe(1)
    const report = JSON.parse(stdout) as Report
    expectValidReport(report)
    expect(report.counts).toMatchObject({ routes: 2, ready: 1, failed: 1 })
    expect(report.routes.find((r) => r.name === 'nope')?.problems?.[0]?.reason).toBe(
      'RouteNotFound'
    )
  })

  it('writes the whole report to --report-file', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-cli-'))
    const file = path.join(dir, 'report.json')
    await runCli(['check', '--from-file', EXAMPLE, '--report-file', file])
    const { readFile } = await import('node:fs/promises')
    expectValidReport(JSON.parse(await readFile(file, 'utf8')))
  })
})

describe('usage and errors', () => {
  it('--help lists every flag and the exit codes', async () => {
    const { code, stdout } = await runCli(['--help'])
    expect(code).toBe(0)
    for (const input of INPUTS.filter((i) => !i.actionOnly)) {
      expect(stdout).toContain(`--${input.name}`)
    }
    expect(stdout).toContain('Exit codes: 0 ready, 1 not ready')
  })

  // each with the line its kubectl-style short flags appear on
  const KUBECTL = /-n, --namespace NAMESPACE[\s\S]*-o, --format FORMAT/
  const CHECK = {
    has: ['manifests', 'from-file', 'fail-fast'],
    lacks: ['dry-run', 'previous'],
    shorts: KUBECTL
  }
  const APPLY = { has: ['manifests', 'dry-run'], lacks: ['from-file', 'previous'], shorts: KUBECTL }
  const MONITOR = {
    has: ['previous', 'fail-on'],
    lacks: ['manifests', 'verify-traffic'],
    shorts: KUBECTL
  }
  const DUMP = {
    has: ['output-file', 'kubeconfig'],
    lacks: ['manifests', 'format', 'timeout'],
    shorts: /-o, --output-file FILE/
  }
  it.each([
    [['check', '--help'], 'check', CHECK],
    [['check', '-h'], 'check', CHECK],
    [['help', 'check'], 'check', CHECK],
    [['apply', '--help'], 'apply', APPLY],
    [['help', 'apply'], 'apply', APPLY],
    [['monitor', '--help'], 'monitor', MONITOR],
    [['help', 'dump'], 'dump', DUMP]
  ])('%j prints that command’s flags only, exit 0', async (args, verb, flags) => {
    const { code, stdout } = await runCli(args)
    expect(code).toBe(0)
    expect(stdout.split('\n')[0]).toMatch(new RegExp(`^route-gate ${verb}: `))
    const listed = [...stdout.matchAll(/^ {2}(?:-\w, )?--([a-z-]+)/gm)].map((m) => m[1])
    expect(stdout).toContain('--kubeconfig PATH')
    expect(stdout).toMatch(flags.shorts)
    expect(listed).toEqual(expect.arrayContaining(flags.has))
    for (const flag of flags.lacks) expect(listed).not.toContain(flag)
  })

  it('predict --help says what ready, failed and unknown mean and what --strict does to unknown', async () => {
    const { code, stdout } = await runCli(['predict', '--help'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^ {2}ready {4}the objects show every --conditions True/m)
    expect(stdout).toMatch(/^ {2}failed {3}the objects decide a condition False/m)
    expect(stdout).toMatch(/^ {2}unknown {2}the objects cannot tell/m)
    expect(stdout).toContain('--strict fails it, exit 1')
    expect((await runCli(['check', '--help'])).stdout).not.toContain('the objects cannot tell')
  })

  it('reads a dump from stdin, takes kubectl short flags, and prints YAML with -o yaml', async () => {
    const { readFile } = await import('node:fs/promises')
    const dump = await readFile(EXAMPLE, 'utf8')
    const yaml = await runCli(['check', '--from-file', '-', '-o', 'yaml', '-n', 'shop'], {
      input: dump
    })
    expect(yaml.code).toBe(1)
    const { parse } = await import('yaml')
    const report = parse(yaml.stdout) as Report
    expectValidReport(report)
    const json = await runCli([
      'check',
      '--from-file',
      EXAMPLE,
      '--output',
      'json',
      '--namespace=shop'
    ])
    expect(report).toEqual({ ...(JSON.parse(json.stdout) as Report), routes: expect.any(Array) })
    expect(report.routes.map((r) => r.name)).toEqual(
      (JSON.parse(json.stdout) as Report).routes.map((r) => r.name)
    )
    expect(report.routes.every((r) => r.source?.file === 'stdin')).toBe(true)
  })

  it('--version prints the package version', async () => {
    const { code, stdout } = await runCli(['--version'])
    expect(code).toBe(0)
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  })

  it.each([
    [
      ['check', '--timout', '5m'],
      'route-gate: Unknown flag --timout: did you mean --timeout? (see route-gate check --help)'
    ],
    [
      ['check', '--namepsace', 'shop'],
      'route-gate: Unknown flag --namepsace: did you mean --namespace? (see route-gate check --help)'
    ],
    [['check', '-x'], 'route-gate: Unknown flag -x (see route-gate check --help)'],
    [
      ['check', '--previous', 'last.json'],
      'route-gate: Flag --previous belongs to route-gate monitor, not check (see route-gate check --help)'
    ],
    [
      ['apply', '--from-file', 'dump.yaml'],
      'route-gate: Flag --from-file belongs to route-gate check, not apply (see route-gate apply --help)'
    ],
    [
      ['check', 'httproute/web'],
      'route-gate: Unexpected argument "httproute/web": flags look like --name value (see route-gate check --help)'
    ],
    [
      ['check', '--namespace', 'a', '--namespace', 'b'],
      'route-gate: Flag --namespace is given twice'
    ],
    [
      ['deploy'],
      'route-gate: Unknown command "deploy": use one of check, apply, monitor, predict, dump (see route-gate --help)'
    ],
    [
      ['aply'],
      'route-gate: Unknown command "aply": did you mean apply? use one of check, apply, monitor, predict, dump (see route-gate --help)'
    ],
    [
      ['check', '--routes', 'httproute/web', '--kubeconfig', '/nonexistent/kubeconfig'],
      'route-gate: Invalid kubeconfig "/nonexistent/kubeconfig": no such file'
    ],
    [
      ['apply', '--manifests', 'a.yaml', '--kubeconfig', 'examples'],
      'route-gate: Invalid kubeconfig "examples": a directory, not a regular file'
    ],
    [
      ['dump', '-o', '-', '--kubeconfig', '/dev/null'],
      'route-gate: Invalid kubeconfig "/dev/null": a character device, not a regular file'
    ],
    [
      ['check', '--comment'],
      'route-gate: Flag --comment is an input of the Action only (see route-gate check --help)'
    ],
    [
      ['check', '--routes', 'httproute/web', '--timeout', '5 minutes'],
      'route-gate: Invalid timeout "5 minutes": use a duration like 90s, 5m or 1h'
    ],
    [['check', '--from-file', 'nope.yaml'], 'route-gate: from-file "nope.yaml": no such file'],
    [
      ['predict', '--manifests', 'examples/pull-request/canary.yaml', '--from-file', 'nope.yaml'],
      'route-gate: from-file "nope.yaml": no such file'
    ],
    [
      [
        'predict',
        '--manifests',
        'examples/pull-request/canary.yaml',
        '--from-file',
        'package.json'
      ],
      'route-gate: from-file package.json document 1: field "apiVersion" is missing or not a string'
    ],
    [['check', '--timeout'], 'route-gate: Flag --timeout needs a value']
  ])('%j exits 2 with one clear line', async (args, message) => {
    const { code, stdout, stderr } = await runCli(args)
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe(`${message}\n`)
  })

  it('a report-file that cannot be written is an input error, and stderr never starts a workflow command', async () => {
    const file = '/nonexistent-dir/report.json\n::error::pwned'
    const { code, stderr } = await runCli(['check', '--from-file', EXAMPLE, '--report-file', file])
    expect(code).toBe(2)
    expect(stderr).toMatch(/^route-gate: Invalid report-file ".*": cannot write it \(ENOENT\)/s)
    expect(stderr.split('\n').filter((line) => /^\s*::/.test(line))).toEqual([])
  })

  it('--kubeconfig is a path (relative to the working directory): its server is the one tried, exit 3', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-kubeconfig-path-'))
    const { writeFile } = await import('node:fs/promises')
    // a closed port on this host: the fast failure at first contact answers, not the timeout
    await writeFile(
      path.join(dir, 'config'),
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]',
        'contexts: [{name: from-the-path, context: {cluster: c, user: u}}]',
        'current-context: from-the-path',
        'users: [{name: u, user: {token: not-a-secret}}]'
      ].join('\n')
    )
    const { code, stdout, stderr } = await runCli(
      ['check', '-n', 'default', '--kubeconfig', 'config', '--timeout', '5m'],
      { cwd: dir, env: { KUBECONFIG: '/nonexistent/other' } }
    )
    expect(code).toBe(3)
    expect(stdout).toBe('')
    expect(stderr).toMatch(
      /^route-gate: cannot reach https:\/\/127\.0\.0\.1:1 \(context from-the-path\)/
    )
  })

  it('a kubeconfig the user may not read is exit 2 naming it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-kubeconfig-mode-'))
    const { chmod, writeFile } = await import('node:fs/promises')
    await chmod(dir, 0o755)
    const file = path.join(dir, 'config')
    await writeFile(file, 'apiVersion: v1\nkind: Config\n', { mode: 0o600 })
    await chmod(file, 0o000)
    // root reads any file: run the CLI as nobody then, who may not read a root-owned 0000 file
    const prefix =
      process.getuid?.() === 0
        ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']
        : []
    const { code, stderr } = await runCli(
      ['check', '--routes', 'httproute/web', '--kubeconfig', file],
      { prefix, cwd: os.tmpdir() }
    )
    expect(stderr).toBe(`route-gate: Invalid kubeconfig "${file}": cannot read it (EACCES)\n`)
    expect(code).toBe(2)
  })

  it('refuses the silent localhost:8080 fallback with exit 3', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'route-gate-home-'))
    const { code, stderr } = await runCli(
      ['check', '--routes', 'httproute/web', '--timeout', '5s'],
      {
        env: { HOME: home, KUBECONFIG: undefined }
      }
    )
    expect(code).toBe(3)
    expect(stderr).toMatch(/^route-gate: No cluster configured/)
    expect(stderr).not.toMatch(/\n\s+at /)
  })
})
