/** Where an Anthropic request's `cache_control` markers are, as paths into it (`.tools[3]`, `.messages[2].content[0]`). */
export function breakpoints(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => breakpoints(item, `${path}[${index}]`))
  if (!value || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, field]) =>
    key === 'cache_control' ? [path] : breakpoints(field, `${path}.${key}`),
  )
}

/** The value without its `cache_control` markers, which move to the newest messages each request. */
export function unmarked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => unmarked(item))
  if (!value || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'cache_control')
      .map(([key, field]) => [key, unmarked(field)]),
  )
}
