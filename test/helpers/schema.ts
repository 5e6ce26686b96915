// Validates a report against the project's copy of the contract (docs/report.schema.json), for any
// test that builds or reads one.
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { expect } from 'vitest'

const schema: unknown = JSON.parse(
  readFileSync(new URL('../../docs/report.schema.json', import.meta.url), 'utf8')
)
const ajv = new Ajv2020({ allErrors: true, strict: true })
// ajv-formats is CommonJS: under NodeNext its default export is reached through `.default`.
addFormats.default(ajv)
const validate = ajv.compile(schema as object)

export function expectValidReport(report: unknown): void {
  const valid = validate(report)
  expect(valid, `report breaks the contract: ${ajv.errorsText(validate.errors)}`).toBe(true)
}
