// The unit project for StrykerJS (stryker.config.mjs): never the integration project, whose globalSetup
// would start a control plane in every sandbox, and without the files that start the committed bundle
// dist/ as a process: a mutant lives in src/ only, so they cannot see it, and they are the slowest.
import { defineConfig } from 'vitest/config'
import { unitProject } from './vitest.config.ts'

const RUN_DIST = [
  'test/unit/cli.test.ts',
  'test/unit/monitor-cli.test.ts',
  'test/unit/secrets.test.ts'
]

export default defineConfig({
  test: { ...unitProject.test, exclude: [...RUN_DIST, '**/node_modules/**'] }
})
