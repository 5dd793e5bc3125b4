/** Items per page of a served listing (`resources/list`, `prompts/list`). */
export const PAGE_SIZE = 100

/**
 * One page of `all` from `cursor` (the index it starts at, as the previous page said): the same
 * list read again gives the next page. A cursor this server never gave is an InvalidParams error.
 */
export async function page<T>(
  all: readonly T[],
  cursor: string | undefined,
): Promise<{items: T[]; nextCursor?: string}> {
  const start = Number(cursor ?? 0)
  if (!Number.isInteger(start) || start < 0) {
    const {ErrorCode, McpError} = await import('@modelcontextprotocol/sdk/types.js')
    throw new McpError(ErrorCode.InvalidParams, `Unknown cursor ${cursor}: list from the start`)
  }

  const end = start + PAGE_SIZE
  return {items: all.slice(start, end), ...(end < all.length ? {nextCursor: String(end)} : {})}
}
