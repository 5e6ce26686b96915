// The job summary as the committed Action bundle writes it on a runner (GITHUB_* set), judging the
// shipped example dump: failures in full, ready Routes collapsed, file:line linked to the commit.
import { describe, expect, it } from 'vitest'
import { runAction } from '../helpers/action.ts'
import { expectInertMarkdown } from '../fixtures/report/inert.ts'

const SHA = 'f'.repeat(40)
const GITHUB = {
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'acme/shop',
  GITHUB_SHA: SHA
}
const inputs = { 'from-file': 'examples/cluster-dump.yaml', 'all-namespaces': 'true' }

describe('the job summary of the Action bundle', () => {
  it('links each failing Route to its line at the commit, and collapses the ready ones', async () => {
    const result = await runAction(inputs, { env: GITHUB })
    expect(result.code).toBe(1)
    const { summary } = result
    expect(summary).toContain(
      `from [examples/cluster-dump.yaml:321](https://github.com/acme/shop/blob/${SHA}/examples/cluster-dump.yaml#L321)`
    )
    expect(summary).toContain('<details><summary>✅ 2 other Routes ready</summary>')
    expect(summary).toContain('### Routes that need attention')
    expect(summary).not.toMatch(/^\| ✅ /mu)
    expectInertMarkdown(summary)
    // no explanation, message or evidence line said twice (table rows, markup and fences aside)
    const said = summary
      .split('\n')
      .filter((line) => line.length > 30 && !/^(\| |<|```)/.test(line))
    expect(said.length).toBeGreaterThan(40)
    expect(said.filter((line, i) => said.indexOf(line) !== i)).toEqual([])
  })

  it('writes file:line as plain text when the runner does not say where the repository is', async () => {
    const result = await runAction(inputs)
    expect(result.summary).toContain('from examples/cluster-dump.yaml:321 ·')
    expect(result.summary).not.toContain('/blob/')
  })
})
