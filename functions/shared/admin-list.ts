/**
 * Filtering, sorting and paging of the console's small lists (the waitlist is capped, talent
 * and contact messages number in the hundreds before launch), done in memory after one read.
 */
export interface PageParams<K extends string> {
  q?: string;
  sort: K;
  order: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

export function matchesQuery(q: string | undefined, ...fields: Array<string | undefined>): boolean {
  if (!q) return true;
  const needle = q.toLowerCase();
  return fields.some((f) => f?.toLowerCase().includes(needle));
}

export function sortAndPage<T, K extends string>(
  items: T[],
  params: PageParams<K>,
  valueOf: (item: T, key: K) => string | number | boolean | undefined,
): { items: T[]; total: number } {
  const dir = params.order === 'DESC' ? -1 : 1;
  const sorted = [...items].sort((a, b) => {
    const x = valueOf(a, params.sort);
    const y = valueOf(b, params.sort);
    if (x === y) return 0;
    if (x === undefined) return 1;
    if (y === undefined) return -1;
    return (typeof x === 'string' && typeof y === 'string' ? x.localeCompare(y) : x < y ? -1 : 1) * dir;
  });
  return { items: sorted.slice(params.offset, params.offset + params.limit), total: items.length };
}

/** Query string parameters of an HTTP API event, as a plain object for a zod schema. */
export function queryOf(event: { queryStringParameters?: Record<string, string | undefined> }): Record<string, string> {
  return Object.fromEntries(Object.entries(event.queryStringParameters ?? {}).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
}
