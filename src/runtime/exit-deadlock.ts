// Node 24 can hang at exit after the verdict is out (nodejs/node#54918, #64274): a compile job on one
// of Node's worker threads, short of heap, waits for a collection only the main thread can make,
// while `process.exit` joins that thread first. Here 1 run in 15 of a 5,000-Route prediction hung.

/**
 * Maglev still optimizes in the background but builds its code on the main thread, and Sparkplug
 * compiles there: no code is allocated on a worker thread. These flags leave V8's flag hash as it
 * is; `--no-maglev` would not, and Node's own modules would then be compiled afresh instead of from
 * their code cache.
 */
export const EXIT_DEADLOCK_FLAGS = [
  '--no-maglev-build-code-on-background',
  '--no-maglev-deopt-data-on-background',
  '--no-concurrent-sparkplug'
]

/**
 * Sets the flags. Only from the entry point, before the bundle is loaded: a Maglev job already in
 * flight when they change ends the process on a V8 check ("!deopt_data.is_null()", SIGTRAP), which
 * 1 run in 8 did when they were set mid-run. A run that has not yet loaded its code has no such job.
 */
export function avoidExitDeadlock(): void {
  const v8 = process.getBuiltinModule('node:v8')
  for (const flag of EXIT_DEADLOCK_FLAGS) v8.setFlagsFromString(flag)
}
