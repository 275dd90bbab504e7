import fc from 'fast-check';
import type * as z from 'zod';

/**
 * Bad requests for one route, generated with fast-check from a valid example (see
 * route-examples.ts): broken fields (wrong types, missing and extra fields, huge strings, unicode
 * edge cases), bad JSON, bodies that are not objects, wrong or absent content types, huge
 * bodies. `broken` lists the fields the route's contract refuses, so an answer can be checked
 * for naming them; it is empty when the whole body is wrong.
 */
export interface BadRequest {
  kind: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  query?: string;
  /** The request's path, when the route's path parameters are what is bad. */
  path?: string;
  broken: string[];
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Path = Array<string | number>;

/** Strings that have broken parsers and validators: lone surrogates, RTL overrides, zero widths, emoji, NUL. */
const UNICODE_PIECES = [
  '\ud800',
  '\udfff',
  '\udc00\ud800',
  '\u202e',
  '\u200f',
  '\u200b',
  '\u200d',
  '\ufeff',
  '\u0000',
  '\u2028',
  '\uffff',
  '😀',
  '👩‍👩‍👧‍👦',
  '🏳️‍🌈',
  'e\u0301\u0301\u0301',
  'مرحبا',
  'שלום',
  '𝕏',
  'Ω≈ç√',
  '<script>',
  "'; --",
  '%00',
  '../',
];
const unicodeString = fc.array(fc.constantFrom(...UNICODE_PIECES), { minLength: 1, maxLength: 12 }).map((p) => p.join(''));
const hugeString = fc
  .tuple(fc.constantFrom('a', '0', ' ', 'é', '😀', '\u200b', '\ud800'), fc.integer({ min: 300, max: 12_000 }))
  .map(([c, n]) => c.repeat(n));
const anyValue: fc.Arbitrary<Json> = fc.oneof<fc.Arbitrary<Json>[]>(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 20 }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
  fc.constant<Json>([]),
  fc.constant<Json>({}),
);

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Every path to a value inside the example (not the root). */
function pathsOf(value: Json, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [];
  const entries: Array<[string | number, Json]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...pathsOf(v, [...prefix, k])]);
}

function valueAt(root: Json, path: Path): Json | undefined {
  let v: Json | undefined = root;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<string | number, Json>)[k] : undefined;
  return v;
}

type Mutation = { op: 'set'; path: Path; value: Json } | { op: 'delete'; path: Path } | { op: 'add'; key: string; value: Json };

function apply(root: Json, m: Mutation): Json {
  const copy = structuredClone(root) as Record<string, Json>;
  if (m.op === 'add') {
    // defineProperty: an own `__proto__` key, as JSON.parse makes it on the server.
    Object.defineProperty(copy, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
    return copy;
  }
  const parent = valueAt(copy, m.path.slice(0, -1));
  if (parent === null || typeof parent !== 'object') return copy;
  const key = m.path[m.path.length - 1];
  if (m.op === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete (parent as Record<string, Json>)[key];
  } else (parent as Record<string | number, Json>)[key] = m.value;
  return copy;
}

function mutation(example: Json): fc.Arbitrary<Mutation> {
  const paths = pathsOf(example);
  const path = fc.constantFrom(...paths);
  const extraKey = fc.oneof(
    fc.constantFrom('__proto__', 'constructor', 'isAdmin', 'status', 'id', 'role', 'decision', 'spotNumber', ''),
    fc.string({ minLength: 1, maxLength: 12 }),
  );
  return fc.oneof(
    // A value of another JSON type.
    path.chain((p) => anyValue.filter((v) => typeOf(v) !== typeOf(valueAt(example, p))).map((value): Mutation => ({ op: 'set', path: p, value }))),
    path.map((p): Mutation => ({ op: 'delete', path: p })),
    fc.tuple(extraKey, anyValue).map(([key, value]): Mutation => ({ op: 'add', key, value })),
    fc.tuple(path, hugeString).map(([p, value]): Mutation => ({ op: 'set', path: p, value })),
    // Unicode edge cases instead of, before or after a string.
    fc.tuple(path, unicodeString, fc.constantFrom('replace', 'prefix', 'suffix')).map(([p, u, where]): Mutation => {
      const old = valueAt(example, p);
      const s = typeof old === 'string' ? old : '';
      return { op: 'set', path: p, value: where === 'replace' ? u : where === 'prefix' ? u + s : s + u };
    }),
  );
}

/** The top-level names of the fields a contract refuses in a value (unknown keys included). */
function brokenFields(schema: z.ZodType, value: unknown): string[] | undefined {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const names = new Set<string>();
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') issue.keys.forEach((k) => names.add(k));
    else if (issue.path.length) names.add(String(issue.path[0]));
  }
  return [...names];
}

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'text/html; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----x',
  'application/xml',
  'application/octet-stream',
  'image/jpeg',
  'application/javascript',
];

/** Bad JSON bodies for a route whose body is `example`. Payloads the contract accepts are left out. */
export function badBodies(example: Record<string, Json>, schema: z.ZodType): fc.Arbitrary<BadRequest | undefined> {
  const json = { 'content-type': 'application/json' };
  const validText = JSON.stringify(example);
  const fields = fc.array(mutation(example), { minLength: 1, maxLength: 3 }).map((ms) => {
    const value = ms.reduce(apply, example as Json);
    const broken = brokenFields(schema, value);
    return broken && { kind: 'fields', headers: json, body: JSON.stringify(value), broken };
  });
  const badJson = fc
    .oneof(
      fc.integer({ min: 1, max: validText.length - 1 }).map((n) => validText.slice(0, n)),
      fc.string({ maxLength: 200 }),
      fc.constantFrom('{', '}', '{"email":}', "{'email':'a@b.example'}", '{"a":1,}', 'NaN', 'undefined', '\u0000', '\ufeff{}', '{"a":"\\ud800"'),
    )
    .map((text) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return { kind: 'bad JSON', headers: json, body: text, broken: [] };
      }
      return schema.safeParse(parsed).success ? undefined : { kind: 'bad JSON', headers: json, body: text, broken: [] };
    });
  const notObject = fc
    .oneof(anyValue.filter((v) => typeOf(v) !== 'object'), fc.constant([example] as Json), fc.constant(null))
    .map((v) => ({ kind: 'not an object', headers: json, body: JSON.stringify(v), broken: [] }));
  const contentType = fc
    .oneof(fc.constantFrom(...WRONG_CONTENT_TYPES), fc.stringMatching(/^[a-z]{1,10}\/[a-z+.-]{1,15}$/).filter((t) => !t.startsWith('application/json')))
    .map((type) => ({ kind: 'wrong content type', headers: { 'content-type': type }, body: validText, broken: [] }));
  const absentType = fields.map((r) => r && { ...r, kind: 'no content type', headers: {} });
  const hugeBody = fc
    .tuple(fc.constantFrom(...Object.keys(example)), fc.integer({ min: 17 * 1024, max: 1024 * 1024 }), fc.boolean())
    .map(([field, size, binary]): BadRequest =>
      binary
        ? { kind: 'huge body', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.alloc(size, 0xff), broken: [] }
        : { kind: 'huge body', headers: json, body: JSON.stringify({ ...example, [field]: 'x'.repeat(size) }), broken: [] },
    );
  const empty = fc.constantFrom<BadRequest>({ kind: 'empty body', headers: json, body: '', broken: [] }, { kind: 'empty body', headers: {}, broken: [] });
  return fc.oneof(
    { arbitrary: fields, weight: 10 },
    { arbitrary: badJson, weight: 2 },
    { arbitrary: notObject, weight: 1 },
    { arbitrary: contentType, weight: 1 },
    { arbitrary: absentType, weight: 1 },
    { arbitrary: hugeBody, weight: 1 },
    { arbitrary: empty, weight: 1 },
  );
}

/** Bad query strings for a route whose query is `example`. */
export function badQueries(example: Record<string, string>, schema: z.ZodType): fc.Arbitrary<BadRequest | undefined> {
  const names = Object.keys(example);
  const value = fc.oneof(fc.string({ maxLength: 30 }), unicodeString, hugeString.map((s) => s.slice(0, 4000)), fc.constant(''));
  const change = fc.oneof(
    fc.tuple(fc.constantFrom(...names), value).map(([k, v]) => (q: Record<string, string>) => ({ ...q, [k]: v })),
    fc.constantFrom(...names).map((k) => (q: Record<string, string>) => Object.fromEntries(Object.entries(q).filter(([n]) => n !== k))),
    fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), value).map(([k, v]) => (q: Record<string, string>) => ({ ...q, [k]: v })),
  );
  return fc.array(change, { minLength: 1, maxLength: 3 }).map((changes) => {
    const q = changes.reduce((acc, f) => f(acc), example);
    const broken = brokenFields(schema, q);
    return broken && { kind: 'query', headers: {}, query: new URLSearchParams(q).toString(), broken };
  });
}

/** One code unit or character as percent-encoded UTF-8, lone surrogates included (as WTF-8 bytes). */
function percentEncode(s: string): string {
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else out += encodeURIComponent(ch);
  }
  return out;
}

/**
 * Bad values for a path parameter, percent-encoded as a browser or a script would send them:
 * unicode edge cases, huge values, encoded slashes and dots, NUL, malformed escapes.
 */
export function badPathValues(): fc.Arbitrary<string> {
  return fc.oneof(
    unicodeString.map(percentEncode),
    // Up to about 3,000 characters encoded: API Gateway takes 10 KB of request line and headers.
    hugeString.map((s) => percentEncode(s.slice(0, 250))),
    fc.constantFrom('%2F', '..%2F..%2Fetc', '%00', '%', '%E0%A4%A', '%FF%FE', '%C0%AF', 'a%20b', '%2e%2e', 'UPPER-Case', '-', 'a--b', 'x'.repeat(65)),
    fc.string({ minLength: 1, maxLength: 40 }).map(percentEncode),
  );
}
