// Node 24 can hang at exit after the verdict is out (nodejs/node#54918, #64274): a compile job on one
// of Node's worker threads, short of heap, waits for a collection only the main thread can make,
// while \`process.exit\` joins that thread first. Here 1 run in 15 of a 5,000-Route prediction hung.

/**
 * Maglev still optimizes in the background but builds its code on the main thread, and Sparkplug
 * compiles there: no code is allocated on a worker thread. These flags leave V8's flag hash as it
 * is; \`--no-maglev\` would not, and Node's own modules would then be compiled afresh instead of from
 * their code cache.
 */
export const EXIT_DEADLOCK_FLAGS = [
  '--no-maglev-build-code-on-background',
  '--no-maglev-deopt-data-on-background',
  '--no-concurrent-sparkplug'
]

/** Input from this size on makes a run long and its heap busy, where the hang was seen. */
export const LARGE_INPUT_BYTES = 1024 * 1024

let applied = false

/**
 * Sets the flags, once, for a run that talks to a cluster or reads a large input. Not for every run:
 * loading node:v8 costs a short command about 5 ms (its modules and a collection they bring on).
 */
export function avoidExitDeadlock(): void {
  if (applied) return
  applied = true
  const v8 = process.getBuiltinModule('node:v8')
  for (const flag of EXIT_DEADLOCK_FLAGS) v8.setFlagsFromString(flag)
}
