import { defineConfig } from 'vitest/config'

// Two projects: unit tests (pure, fakes at the cluster boundary) and integration tests against the
// real control plane (kube-apiserver + etcd + Gateway API CRDs + Contour), brought up once per run.
// The integration project runs after the unit project, never beside it: on two cores the unit
// tests' CPU would delay the control plane and make timing-sensitive scenarios lie.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          sequence: { groupOrder: 0 },
          testTimeout: 20_000
        }
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          sequence: { groupOrder: 1 },
          globalSetup: ['test/cluster/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
          fileParallelism: false
        }
      }
    ]
  }
})
