// `npm run cluster:up` / `npm run cluster:down`: the test control plane by hand, e.g. to point the
// route-gate CLI at it with KUBECONFIG=.cluster/kubeconfig.
import { down, up } from './control-plane.ts'
import { DEFAULT_CLUSTER_DIR } from './env.ts'
import { removeTestNetworks } from '../helpers/netns.ts'

async function main(command: string | undefined): Promise<void> {
  if (command === 'up') {
    const env = await up()
    process.stdout.write(`KUBECONFIG=${env.kubeconfig}\n`)
  } else if (command === 'down') {
    const stopped = await down()
    // network namespaces of test backends that a crashed test left behind
    const networks = removeTestNetworks(DEFAULT_CLUSTER_DIR)
    if (networks > 0) process.stdout.write(`removed ${networks} test network namespaces\n`)
    process.stdout.write(
      stopped ? 'cluster stopped\n' : 'no cluster recorded in .cluster/env.json\n'
    )
  } else {
    process.stderr.write('usage: cli.ts up|down\n')
    process.exitCode = 2
  }
}

main(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
})
