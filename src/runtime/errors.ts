// The two kinds of failure that are not a verdict. Each carries a message meant for the user as is:
// entry points print it without a stack trace and exit with the code.

/** Bad input or usage: names the input, file, document and field. Exit code 2. */
export class InputError extends Error {
  readonly exitCode = 2
  override name = 'InputError'
}

/** Cluster access: unreachable, unauthorized, forbidden, bad context. Names host, context or permission. Exit code 3. */
export class ClusterError extends Error {
  readonly exitCode = 3
  override name = 'ClusterError'
}

/**
 * Work that did not finish within the run's timeout (a prediction of more than the machine can do in
 * time). Exit code 3, as for a cluster that does not answer: no verdict was reached.
 */
export class DeadlineError extends Error {
  readonly exitCode = 3
  override name = 'DeadlineError'
}

export function exitCodeOf(error: unknown): 2 | 3 | 1 {
  if (error instanceof InputError) return 2
  if (error instanceof ClusterError || error instanceof DeadlineError) return 3
  return 1
}
