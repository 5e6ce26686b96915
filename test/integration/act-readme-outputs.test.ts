// The README's own output step (env: then echo) under act, after a predict whose failed Route has a
// hostile name: a pull request controls its manifests, so the name is untrusted text, and the README
// promises that passing outputs through env: keeps it from becoming a workflow command. The step is
// read from README.md so that this test follows the README rather than a copy of it.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runWorkflow, step } from '../helpers/act.ts'
import { REPO } from '../helpers/action.ts'

// each line would be a command if the name reached the log raw; add-mask of "verdict" would turn
// the echo's own "verdict=" into "***="
const HOSTILE =
  'bad\n::error title=pwned::pwned\n::notice::pwned\n::add-mask::verdict\n%0A::warning::pwned \u001b[31mred'

/** The README's `- if: always()` step with its env: and run:, re-indented under `steps:`. */
async function readmeStep(): Promise<string> {
  const readme = await readFile(path.join(REPO, 'README.md'), 'utf8')
  const block =
    /^( *)- if: always\(\)\n(?:\1 {2}#.*\n)*\1 {2}env:\n(?:\1 {4}.*outputs\..*\n)+\1 {2}run: echo .*\n/m.exec(
      readme
    )
  if (block === null) throw new Error('README.md no longer has the env:/run: output step')
  const lines = block[0].trimEnd().split('\n')
  const indent = block[1]!.length
  const reindented = lines.map((l) => '      ' + l.slice(indent))
  return [reindented[0], '        id: readme', ...reindented.slice(1)].join('\n') + '\n'
}

const DUMP = `# route-gate dump ${JSON.stringify({
  takenAt: new Date().toISOString(),
  cluster: 'https://api.example:6443',
  context: 'prod',
  forbidden: [],
  complete: ['GatewayClass', 'Gateway', 'HTTPRoute', 'Namespace', 'Service']
})}
apiVersion: v1
kind: List
items:
  - { apiVersion: gateway.networking.k8s.io/v1, kind: GatewayClass, metadata: { name: contour },
      spec: { controllerName: projectcontour.io/gateway-controller } }
  - apiVersion: gateway.networking.k8s.io/v1
    kind: Gateway
    metadata: { name: web, namespace: infra, generation: 1 }
    spec:
      gatewayClassName: contour
      listeners: [{ name: http, port: 80, protocol: HTTP, allowedRoutes: { namespaces: { from: All } } }]
  - { apiVersion: v1, kind: Namespace, metadata: { name: shop } }
`

// no Service "missing" in the dump: the Route is predicted to fail, so its name is in failed-routes
const route = (name: string) => `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: { name: ${JSON.stringify(name)}, namespace: shop }
spec:
  parentRefs: [{ name: web, namespace: infra }]
  rules: [{ backendRefs: [{ name: missing, port: 8080 }] }]
`

async function readmeRun(name: string) {
  const workflow = `name: readme
on: [pull_request]
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - id: routes
        uses: ./
        with:
          mode: predict
          manifests: deploy/
          cluster-snapshot: snapshot/dump.yaml
${await readmeStep()}`
  const run = await runWorkflow({
    workflow,
    event: { name: 'pull_request', payload: { pull_request: { number: 7 } } },
    files: { 'snapshot/dump.yaml': DUMP, 'deploy/route.yaml': route(name) }
  })
  expect(step(run, 'routes').result, run.raw).toBe('failure')
  const readme = step(run, 'readme')
  expect(readme.result, run.raw).toBe('success')
  expect(readme.annotations, run.raw).toEqual([])
  // act reports every workflow command it ran as a JSON line with `command`: the README step may
  // run none, and no step may mask
  const commands = run.raw
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { stepID?: string[]; command?: string })
    .filter((l) => l.command !== undefined)
  expect(
    commands.filter((c) => c.stepID?.[0] === 'readme'),
    run.raw
  ).toEqual([])
  expect(
    commands.filter((c) => c.command!.startsWith('add-mask')),
    run.raw
  ).toEqual([])
  const printed = readme.log.split('\n').filter((l) => l.trim() !== '')
  expect(printed, readme.log).toHaveLength(1)
  expect(printed[0]).not.toMatch(/^\s*::|\u001b/)
  return { run, line: printed[0]! }
}

describe("the README's output step under act", () => {
  it('prints a failing Route in failed-routes on one line', async () => {
    const { line } = await readmeRun('bad')
    expect(line).toBe('verdict=failed failed=HTTPRoute shop/bad')
  })

  it('a hostile Route name is refused before it reaches any output, and the step prints no command', async () => {
    const { run, line } = await readmeRun(HOSTILE)
    // the API server would refuse the name, so predict does (exit 2): failed-routes stays empty
    expect(line).toBe('verdict=error failed=')
    expect(step(run, 'routes').exitStatus, run.raw).toBe(2)
    expect(run.raw).toContain('is not a DNS-1123 subdomain')
  })
})
