// The offline monitor as people run it: the committed dist/cli.js on a dump and a former state, no
// cluster. (Rebuild dist with npm run bundle after changing src.)
import { mkdtemp, readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Report } from '../../src/model/types.ts'
import { runCli } from '../helpers/action.ts'
import { expectValidReport } from '../helpers/schema.ts'

const DUMP = 'examples/cluster-dump.yaml'
const PREVIOUS = 'test/fixtures/monitor/previous-state.json'
const t = (namespace: string, name: string, from: string, to: string, kind = 'HTTPRoute') => ({
  kind,
  namespace,
  name,
  from,
  to
})

describe('route-gate monitor --from-file', () => {
  it('reports what changed since the previous state, as a valid report, and fails on degradation', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-monitor-cli-'))
    const stateOut = path.join(dir, 'state.json')
    const args = ['monitor', '--from-file', DUMP, '--all-namespaces', '--previous', PREVIOUS]
    const result = await runCli([...args, '--format', 'json', '--state-out', stateOut])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(1)
    const report = JSON.parse(result.stdout) as Report
    expectValidReport(report)
    expect(report.mode).toBe('monitor')
    expect(report.transitions).toEqual([
      t('marketing', 'landing', 'absent', 'failed'),
      t('shop', 'beta', 'ready', 'pending'),
      t('shop', 'checkout', 'ready', 'failed'),
      t('shop', 'old-storefront', 'ready', 'absent'),
      t('shop', 'reports', 'pending', 'failed'),
      t('shop', 'storefront', 'failed', 'ready')
    ])
    const state = JSON.parse(await readFile(stateOut, 'utf8')) as { routes: unknown[] }
    expect(state.routes).toHaveLength(report.counts.routes)

    // the state just written is the next run's previous state: nothing changed since
    const again = await runCli([...args.slice(0, 4), '--previous', stateOut, '--format', 'json'])
    expect(again.code).toBe(0)
    expect((JSON.parse(again.stdout) as Report).transitions).toEqual([])
  })

  it('exits as fail-on says', async () => {
    const base = ['monitor', '--from-file', DUMP, '--all-namespaces', '--previous', PREVIOUS]
    expect((await runCli([...base, '--fail-on', 'never'])).code).toBe(0)
    expect(
      (await runCli(['monitor', '--from-file', DUMP, '--all-namespaces', '--fail-on', 'any'])).code
    ).toBe(1)
    // the first run is the baseline: nothing degraded yet
    expect((await runCli(['monitor', '--from-file', DUMP, '--all-namespaces'])).code).toBe(0)
  })

  it('prints the changes in the text and Markdown renderings', async () => {
    const md = await runCli([
      'monitor',
      '--from-file',
      DUMP,
      '--all-namespaces',
      '--previous',
      PREVIOUS,
      '--format',
      'markdown'
    ])
    expect(md.stdout).toContain('### Changes since the last run')
    expect(md.stdout).toContain('| HTTPRoute shop/checkout | ready | failed |')
  })

  it('refuses a bad previous file and action-only inputs with exit 2', async () => {
    const missing = await runCli(['monitor', '--from-file', DUMP, '--previous', 'nope.json'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toBe('route-gate: Invalid previous "nope.json": no such file\n')
    const token = await runCli(['monitor', '--from-file', DUMP, '--github-token', 'x'])
    expect(token.code).toBe(2)
    expect(token.stderr).toMatch(/^route-gate: Flag --github-token is an input of the Action only/)
  })
})
