/**
 * Waits for a condition, never for a length of time: calls `check` until it gives a value other
 * than `undefined` or `false`, and resolves with that value. A check that throws counts as "not
 * yet" (an assertion inside it may pass on a later call). Calls come 20 ms apart at first, then
 * further apart (up to `maxIntervalMs`), so a quick condition is seen at once and a slow one
 * does not load a busy machine. After `timeoutMs` it throws an error naming `what` with the
 * last value or error seen, which is what a failing test needs to say.
 */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  { timeoutMs = 30_000, what = 'the condition', maxIntervalMs = 250 }: { timeoutMs?: number; what?: string; maxIntervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let interval = 20;
  let last: { value: unknown } | { error: unknown } | undefined;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value as T;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last ${describe(last)}`);
    await new Promise((r) => setTimeout(r, Math.min(interval, Math.max(0, deadline - Date.now()))));
    interval = Math.min(maxIntervalMs, interval * 2);
  }
}

function describe(last: { value: unknown } | { error: unknown } | undefined): string {
  if (!last) return 'check: none';
  if ('error' in last) return `error: ${last.error instanceof Error ? `${last.error.name}: ${last.error.message}` : String(last.error)}`;
  return `value: ${String(last.value)}`;
}
