import { runAction } from './action.ts'
import { exitWhenFlushed } from './exit.ts'

await exitWhenFlushed(await runAction())
