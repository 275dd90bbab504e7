/**
 * The object key as S3 writes it into event notifications (and into EventBridge `Object
 * Created` events): URL-encoded as a form value, so a space arrives as `+` and `@` as `%40`.
 * Decoded as AWS documents it: `+` becomes a space, then percent-decoding (UTF-8). A key that is
 * not valid percent-encoding is refused (undefined), never guessed at.
 */
export function decodeS3EventKey(encoded: string): string | undefined {
  try {
    return decodeURIComponent(encoded.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
