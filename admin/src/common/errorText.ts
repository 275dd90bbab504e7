/** The API's `{error}` of a failed call, else the error's own message, else `fallback`. */
export function errorText(e: unknown, fallback: string): string {
  const err = e as { body?: { error?: string }; message?: string } | undefined;
  return err?.body?.error || err?.message || fallback;
}
