import { runAction } from './action.ts'

const code = await runAction()
process.exitCode = code
// A socket still closing (a watch, a keep-alive connection) must not hold the step past its deadline.
setTimeout(() => process.exit(code), 1000).unref()
