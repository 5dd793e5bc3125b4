/**
 * Terminal colour for plugin commands without a colour library (the sdk stays dependency-free):
 * the same rule as the CLI's chalk instance (src/cli/style.ts): off when NO_COLOR is set or the
 * stream is not a terminal, on when FORCE_COLOR asks for it.
 */
export interface Paint {
  bold(text: string): string
  dim(text: string): string
  green(text: string): string
  yellow(text: string): string
  red(text: string): string
}

export function colourEnabled(
  stream: {isTTY?: boolean},
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false'
  return stream.isTTY === true
}

const sgr = (open: number, close: number) => (text: string) => `\u001B[${open}m${text}\u001B[${close}m`
const plain = (text: string) => text

export function makePaint(
  stream: {isTTY?: boolean} = process.stdout,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Paint {
  if (!colourEnabled(stream, env)) return {bold: plain, dim: plain, green: plain, red: plain, yellow: plain}
  return {bold: sgr(1, 22), dim: sgr(2, 22), green: sgr(32, 39), red: sgr(31, 39), yellow: sgr(33, 39)}
}
