// The Action's entry point (action.yml runs.main): the start-up checks, then the Action, loaded only
// once Node is known to run it.
import { exitWhenFlushed } from './runtime/exit.ts'
import { startUp } from './runtime/start-up.ts'

startUp('action')
const { runAction } = await import('./action/run-action.ts')
await exitWhenFlushed(await runAction())
