import type {ChalkInstance} from 'chalk'

/** Starting a spinning spinner, or stopping a stopped one, writes nothing. */
export interface Spinner {
  start(): void
  stop(): void
}

/**
 * The "Thinking…" spinner on `stream`, or none where it cannot be drawn: off a terminal, and on a
 * terminal that reports no width (`script </dev/null` gives 0 columns, from which ora computes an
 * endless number of lines to erase). Its colour follows `style`, so NO_COLOR turns it off too.
 * ora costs ~50 ms to load: it is imported only when a spinner can be seen.
 *
 * ora writes a cursor move (ESC[1G) on every stop, spinning or not; this one stops ora only while
 * it spins, so text written between two stops is not overwritten.
 */
export async function terminalSpinner(
  stream: NodeJS.WriteStream,
  style: ChalkInstance,
  text = 'Thinking…',
): Promise<Spinner | undefined> {
  if (!stream.isTTY || !(stream.columns > 0)) return undefined
  const {default: ora} = await import('ora')
  // ora's stdin discarder makes the terminal raw and waits for a Ctrl-C byte on a stdin nothing
  // reads, so Ctrl-C did nothing: the terminal stays as it is and sends SIGINT.
  const spinner = ora({color: style.level > 0 ? 'cyan' : false, discardStdin: false, stream, text})
  return {
    start() {
      if (!spinner.isSpinning) spinner.start()
    },
    stop() {
      if (spinner.isSpinning) spinner.stop()
    },
  }
}
