// Tools the tests run that live in the cache outside the repository, put there by
// test/cluster/build-binaries.sh on first use (a warm call costs a stat): act, the oldest Node
// route-gate supports (package.json engines), kubectl's YAML decoder as an oracle, and kubectl itself.
import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { REPO } from './action.ts'

const run = promisify(execFile)
const BUILD_SCRIPT = path.join(REPO, 'test', 'cluster', 'build-binaries.sh')
const found = new Map<string, Promise<string>>()

/** The path of the tool's executable, as build-binaries.sh prints it after building or fetching it. */
export function cachedTool(
  tool: 'act' | 'node-floor' | 'yaml-oracle' | 'kubectl'
): Promise<string> {
  let binary = found.get(tool)
  if (binary === undefined) {
    binary = run('bash', [BUILD_SCRIPT, tool], { maxBuffer: 1 << 20 }).then(({ stdout }) =>
      stdout.trim().split('\n').pop()!
    )
    found.set(tool, binary)
  }
  return binary
}

/** The directories of the Gateway API module and its conformance module, as the Go proxy serves them. */
export async function gatewayApiModules(): Promise<string[]> {
  const { stdout } = await run('bash', [BUILD_SCRIPT, 'gateway-api-modules'], {
    maxBuffer: 1 << 20
  })
  return stdout
    .trim()
    .split('\n')
    .filter((line) => line !== '')
}
