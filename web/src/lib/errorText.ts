/** The words of a failure to show a person: the error's own message, else `fallback`. */
export function errorText(err: unknown, fallback: string): string {
  return err instanceof Error && err.message ? err.message : fallback;
}
