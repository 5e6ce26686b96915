// vitest globalSetup of the `integration` project: one control plane per run. A healthy cluster left
// by `npm run cluster:up` is reused and left running; one started here is stopped at the end. A
// cluster that cannot start fails the run with the reason and where the logs are, never a skip.
import { envFilePath, ENV_FILE_VARIABLE } from './env.ts'
import { down, up } from './control-plane.ts'

export default async function setup(): Promise<() => Promise<void>> {
  const env = await up()
  process.env.KUBECONFIG = env.kubeconfig
  process.env[ENV_FILE_VARIABLE] = envFilePath()
  return async () => {
    if (!env.reused) await down()
  }
}
