/**
 * The page to return to after signing in (`?next=`), or undefined when the value is not a path
 * of this site: only `/...` paths, never `//host`, `/\host`, a scheme, or control characters
 * (which browsers strip, turning `/\t/host` into `//host`).
 */
export function safeNextPath(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  const value = raw.trim();
  if (!value.startsWith('/') || value.length > 512) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return undefined;
  if (value.startsWith('//')) return undefined;
  try {
    const url = new URL(value, 'https://site.invalid');
    if (url.origin !== 'https://site.invalid') return undefined;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return undefined;
  }
}

/** `/sign-in`, with `next` when there is a page to return to. */
export function signInPath(next?: string): string {
  const safe = safeNextPath(next);
  return safe ? `/sign-in?next=${encodeURIComponent(safe)}` : '/sign-in';
}
