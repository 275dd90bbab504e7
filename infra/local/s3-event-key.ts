/**
 * How S3 writes an object key into its event notifications and EventBridge events: as an
 * `application/x-www-form-urlencoded` value of the UTF-8 key (a space becomes `+`, `@` becomes
 * `%40`, non-ASCII is percent-encoded byte by byte in upper-case hex), except that `/` is kept,
 * so prefix filters on `object.key` still match. Letters, digits and `-_.*` are left as they are.
 */
export function encodeS3EventKey(key: string): string {
  let out = '';
  for (const byte of Buffer.from(key, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.*/]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
