// Manifest files as a user's repository holds them: an HTTPRoute on the Contour Gateway, its Service,
// and a directory to write them into.
import { mkdtemp, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { clusterEnv, testHostname } from './cluster.ts'

// netns.ts holds it without the cluster helpers' imports: `cluster:down` loads that file
export { serviceYaml } from './netns.ts'

/** What differs between the HTTPRoutes the tests and the benchmark apply: one rule, one backend. */
export interface HttpRouteSpec {
  name: string
  gateway: { name: string; namespace: string }
  sectionName?: string
  hostname: string
  backend: string
  backendNamespace?: string
  port?: number
  /** the rule's one path match, in flow style: `{ type: Exact, value: /shop }` */
  path?: string
}

export function httpRouteYaml(r: HttpRouteSpec): string {
  return `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: ${r.name}
spec:
  parentRefs:
  - name: ${r.gateway.name}
    namespace: ${r.gateway.namespace}${r.sectionName ? `\n    sectionName: ${r.sectionName}` : ''}
  hostnames: [${r.hostname}]
  rules:
  - ${r.path ? `matches:\n    - path: ${r.path}\n    ` : ''}backendRefs:
    - name: ${r.backend}${r.backendNamespace ? `\n      namespace: ${r.backendNamespace}` : ''}
      port: ${r.port ?? 8080}
`
}

/** An HTTPRoute `name` on the Contour Gateway, sending to Service `backend` on `port`. */
export function contourRoute(ns: string, name: string, backend: string, port = 8080): string {
  return httpRouteYaml({
    name,
    gateway: clusterEnv().gateway,
    hostname: testHostname(ns, name),
    backend,
    port
  })
}

/** A temporary directory holding these files (relative path → text). */
export async function manifestDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-e2e-'))
  for (const [name, text] of Object.entries(files)) {
    await writeFile(path.join(dir, name), text)
  }
  return dir
}
