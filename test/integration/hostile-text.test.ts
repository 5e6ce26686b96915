// Hostile status on the real control plane: a "controller" (the status helper) writes a condition
// message full of HTML, Markdown, @mentions, table breakers, ANSI and control characters, workflow
// commands and a very long line, and a reason as odd as the CRD allows. The Action and the CLI run
// through the committed bundles; the log, the job summary, the outputs and the CLI text are asserted.
import { describe, expect, it } from 'vitest'
import { runAction, runCli } from '../helpers/action.ts'
import {
  clusterEnv,
  gatewayParentRef,
  testNamespace,
  writeRouteStatus
} from '../helpers/cluster.ts'
import { createOtherRoute } from '../helpers/route-states.ts'
import { expectInertMarkdown, expectNoControl, expectNoMatch } from '../fixtures/report/inert.ts'

const MESSAGE = [
  '<img src=x onerror=alert(1)></details><script>alert(2)</script>',
  'a | b | c',
  'ping @octocat and @github/security, see #123',
  '\u001b[31mred\u001b[0m \u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007 bell\u0007 del\u007f',
  'admin\u202euser\u202c',
  '::error::injected',
  '  ::set-output name=verdict::ready',
  'carriage\r::warning::after-cr',
  '##[error]legacy',
  'mid-line ##[add-mask]Routes and ##[set-output name=ready;]true',
  '::stop-commands::token',
  'then ::stop-commands::token2 mid-line',
  '::token::',
  '*bold* [link](https://evil.example) # heading',
  'y'.repeat(20_000)
].join('\n')
// the CRD's reason pattern allows letters, digits, _ , and :
const REASON = 'Evil::error::Reason,Weird_One'

/** The commands @actions/core itself writes; anything else at the start of a line is an injection. */
const OWN_COMMAND = /^::(error|warning|notice|debug|add-mask|group|endgroup)( [^:\n]*)?::/

function expectSafeLog(log: string): void {
  expectNoControl(log.replace(/\r/g, ''))
  expect(log).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/)
  // the runner reads "##[" anywhere in a line as a (legacy) command; route-gate never writes one
  expectNoMatch(log, /##\[/, 'a legacy workflow command')
  for (const line of log.split('\n')) {
    if (/^\s*::/.test(line)) expect(line, line.slice(0, 200)).toMatch(OWN_COMMAND)
    expect(line).not.toMatch(/^::(error|warning)::(injected|after-cr)/)
  }
  expect(log).not.toMatch(/^\s*::(set-output|stop-commands|token)/m)
}

async function hostileRoute(): Promise<string> {
  const ns = await testNamespace('hostile')
  const generation = await createOtherRoute(ns, 'web')
  await writeRouteStatus(
    'HTTPRoute',
    ns,
    'web',
    {
      parents: [
        {
          parentRef: gatewayParentRef('other'),
          conditions: [
            {
              type: 'Accepted',
              status: 'False',
              reason: REASON,
              message: MESSAGE,
              observedGeneration: generation
            },
            {
              type: 'ResolvedRefs',
              status: 'True',
              reason: 'ResolvedRefs',
              observedGeneration: generation
            }
          ]
        }
      ]
    },
    { controllerName: clusterEnv().otherGateway.controllerName }
  )
  return ns
}

describe('hostile status text through the bundles', () => {
  it('Action: log, summary and outputs stay inert', async () => {
    const ns = await hostileRoute()
    const result = await runAction(
      { routes: `httproute/${ns}/web`, timeout: '3s' },
      { env: { KUBECONFIG: clusterEnv().kubeconfig } }
    )
    expect(result.code, result.stdout.slice(0, 2000)).toBe(1)
    expectSafeLog(result.stdout)
    // the failure is annotated, and the hostile text is inside that one command line, escaped
    const annotations = result.stdout.split('\n').filter((l) => l.startsWith('::error '))
    expect(annotations.length).toBeGreaterThan(0)
    expect(result.stdout).toContain('Evil')

    expectInertMarkdown(result.summary)
    expect(result.summary).toContain('Evil')
    expect(Buffer.byteLength(result.summary)).toBeLessThanOrEqual(1024 * 1024)

    expect(Object.keys(result.outputs).sort()).toEqual(
      ['failed-routes', 'ready', 'report', 'report-file', 'verdict'].sort()
    )
    expect(result.outputs.verdict).toBe('failed')
    expect(result.outputs['failed-routes']).toBe(`HTTPRoute ${ns}/web`)
    const report = JSON.parse(result.outputs.report!) as { verdict: string }
    expect(report.verdict).toBe('failed')
  })

  it('CLI: text and Markdown output carry no escape sequence and no live Markdown', async () => {
    const ns = await hostileRoute()
    const env = { KUBECONFIG: clusterEnv().kubeconfig }
    const text = await runCli(['check', '--routes', `httproute/${ns}/web`, '--timeout', '3s'], {
      env
    })
    expect(text.code).toBe(1)
    expectNoControl(text.stdout)
    expectNoControl(text.stderr)
    expect(text.stdout).toContain('Evil')
    expect(text.stdout).not.toMatch(/[\u202a-\u202e]/)

    const markdown = await runCli(
      ['check', '--routes', `httproute/${ns}/web`, '--timeout', '3s', '--format', 'markdown'],
      { env }
    )
    expect(markdown.code).toBe(1)
    expectInertMarkdown(markdown.stdout)
    expectSafeLog(markdown.stdout)
    expectSafeLog(text.stdout)
    expectSafeLog(text.stderr)
    // the fenced full message still shows what the controller wrote
    expect(markdown.stdout).toContain('add-mask]Routes')

    const json = await runCli(
      ['check', '--routes', `httproute/${ns}/web`, '--timeout', '3s', '--format', 'json'],
      { env }
    )
    expect(json.code).toBe(1)
    expectSafeLog(json.stdout)
    // escaped in the JSON text only: the value is the controller's message, unchanged
    expect(json.stdout).toContain('add-mask]Routes')
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain('##[add-mask]Routes')
  })
})
