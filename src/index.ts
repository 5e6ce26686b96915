import { runAction } from './action.ts'

process.exitCode = await runAction()
