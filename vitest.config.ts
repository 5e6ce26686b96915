import { defineConfig } from 'vitest/config'

// Two projects: unit tests (pure, fakes at the cluster boundary) and integration tests against the
// real control plane (kube-apiserver + etcd + Gateway API CRDs + Contour), brought up once per run.
// One test file at a time (maxWorkers 1): on two cores, unit tests running beside the integration
// tests delayed the control plane enough to make the soak's timing-sensitive verdicts lie.
/** Also run alone by mutation testing (vitest.mutation.config.ts), which must never start a cluster. */
export const unitProject = {
  test: {
    name: 'unit',
    include: ['test/unit/**/*.test.ts'],
    testTimeout: 20_000
  }
}

export default defineConfig({
  test: {
    maxWorkers: 1,
    projects: [
      unitProject,
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/cluster/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
          fileParallelism: false
        }
      }
    ]
  }
})
