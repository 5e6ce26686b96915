// The documents that describe the code must keep up with it: every catalogued controller appears in
// docs/controllers.md, with every controllerName and prefix it is found by and every reason it explains.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CONTROLLERS } from '../../src/rules/controllers.ts'

describe('docs/controllers.md', () => {
  const doc = readFileSync('docs/controllers.md', 'utf8')

  it('lists every catalogued controller with its names and reasons', () => {
    for (const controller of CONTROLLERS) {
      const row = doc.split('\n').find((line) => line.startsWith(`| [${controller.name}](`))
      expect(row, controller.name).toBeDefined()
      for (const name of controller.names) expect(row, name).toContain(`\`${name}\``)
      for (const prefix of controller.prefixes) expect(row, prefix).toContain(`\`${prefix}…\``)
      for (const reason of controller.writes)
        expect(row, `${controller.name} ${reason}`).toContain(`\`${reason}\``)
    }
  })
})

describe('README.md', () => {
  const readme = readFileSync('README.md', 'utf8')

  it('is a page a user reads in five minutes: at most 300 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(300)
  })

  it('opens with the two set-up lines: the shipped example, then the tests', () => {
    const first = /```sh\n([\s\S]*?)```/.exec(readme)?.[1]?.split('\n') ?? []
    expect(first[0]).toMatch(
      /^npm ci && npx route-gate check --from-file examples\/cluster-dump\.yaml /
    )
    expect(first[1]).toMatch(/^npm ci && npm test /)
  })
})
