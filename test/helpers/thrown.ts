/** What `run` throws (undefined when it returns): lets a test look at the error itself. */
export function thrownBy(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }

  return undefined
}
