/**
 * Opens `url` in the user's browser with the `open` package, which spawns the platform's opener
 * (xdg-open, `open`, `start`) with the URL as one argument, never through a shell. Only http(s)
 * URLs are opened: a server-chosen `file:` or custom-scheme URL could run something locally.
 * Whether it worked is a hint only; the URL is always printed too.
 */
export async function openBrowser(url: string): Promise<boolean> {
  let protocol: string
  try {
    protocol = new URL(url).protocol
  } catch {
    return false
  }

  if (protocol !== 'https:' && protocol !== 'http:') return false
  try {
    const {default: open} = await import('open')
    const child = await open(url, {wait: false})
    child.on('error', () => {})
    child.unref()
    return true
  } catch {
    return false
  }
}
