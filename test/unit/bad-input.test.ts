// The bad-input corpus (test/bad-inputs) through run() with no cluster at all: a fake cluster for the
// manifest and input cases, the real client for the kubeconfig cases (nothing listens where they
// point). Each case ends in the exact error of its table row, with its exit code, and applies nothing.
import { mkdtemp, truncate, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { connect } from '../../src/cluster/connect.ts'
import { exitCodeOf } from '../../src/runtime/errors.ts'
import { parseSettings } from '../../src/inputs/parse.ts'
import { MAX_FILE_BYTES } from '../../src/read/files.ts'
import { run } from '../../src/jobs/run.ts'
import {
  BAD_INPUTS,
  CASE_TOKEN,
  caseKubeconfig,
  fill,
  specialFiles,
  UNREACHABLE_SERVER
} from '../bad-inputs/cases.ts'
import { FakeCluster } from '../helpers/fake-cluster.ts'

const CORPUS = fileURLToPath(new URL('../bad-inputs', import.meta.url))
let huge: string
let special: { fifo: string; zerodir: string }

beforeAll(async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-huge-'))
  huge = path.join(dir, 'huge.yaml')
  await writeFile(huge, '')
  // sparse: over the limit without writing 128 MiB
  await truncate(huge, MAX_FILE_BYTES + 1)
  special = await specialFiles(dir)
})

describe('bad inputs without a cluster', () => {
  it.each(BAD_INPUTS.filter((c) => !c.cluster).map((c) => [c.name, c] as const))(
    '%s',
    async (_name, badCase) => {
      const values = {
        ns: 'bad-input-unit',
        huge,
        server: UNREACHABLE_SERVER,
        context: 'test',
        ...special
      }
      const inputs = Object.fromEntries(
        Object.entries(badCase.inputs).map(([k, v]) => [k, fill(v, values)])
      )
      const fake = new FakeCluster()
      const masked: string[] = []
      const logged: string[] = []
      const outcome = await Promise.resolve()
        .then(() => parseSettings((name) => inputs[name], 'gate'))
        .then((settings) =>
          run(settings, {
            connect: (s) =>
              badCase.kubeconfig === undefined
                ? Promise.resolve(fake)
                : connect({
                    kubeconfig: caseKubeconfig(badCase.kubeconfig),
                    context: s.context,
                    env: {},
                    mask: (secret) => masked.push(secret)
                  }),
            log: (line) => logged.push(line),
            cwd: CORPUS,
            now: Date.now
          })
        )
        .then(
          () => undefined,
          (error: unknown) => error as Error
        )
      expect(outcome?.message).toBe(fill(badCase.message, values))
      expect(exitCodeOf(outcome)).toBe(badCase.code)
      expect(fake.applied).toEqual([])
      expect(logged.join('\n')).not.toContain(CASE_TOKEN)
      // a parsed kubeconfig has its token masked before anything could print it
      const parsed = badCase.kubeconfig !== undefined && badCase.kubeconfig !== 'malformed'
      expect(masked.includes(CASE_TOKEN)).toBe(parsed)
    }
  )
})
