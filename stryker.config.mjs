// Mutation testing of the pure cores: the verdict rules (src/model), the Gateway API rules
// (src/rules), their wording (src/wording) and the diagnosis (src/diagnose), judged by the unit
// project alone (vitest.mutation.config.ts): the integration project would start a control plane in
// every sandbox. One mutant at a time, since the machine is shared.
// `npm run mutation -- --mutate 'src/model/**/*.ts'` narrows a run to one directory.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate: ['src/model/**/*.ts', 'src/rules/**/*.ts', 'src/wording/**/*.ts', 'src/diagnose/**/*.ts'],
  coverageAnalysis: 'perTest',
  concurrency: 1,
  // A static mutant (a module-level table such as RANK or WAITING_REASONS) runs every test, not only
  // those that cover it: three quarters of the run's time. `--ignoreStatic false` includes them.
  ignoreStatic: true,
  ignorePatterns: ['.cluster', 'coverage', 'reports', 'bench/results.json'],
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  thresholds: { high: 90, low: 80, break: null }
}
