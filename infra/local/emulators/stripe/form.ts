// Stripe's request parameters: form-encoded bodies and query strings in its bracket syntax
// (`line_items[0][price]=...`, `metadata[plan]=pro`, `expand[]=customer`), read into nested
// objects and arrays, and the readers that check each parameter with Stripe's own messages.

/** A parsed parameter tree: strings at the leaves, objects and arrays above them. */
export type Params = { [key: string]: ParamValue };
export type ParamValue = string | Params | ParamValue[];

/** An error in Stripe's shape (`{ error: { type, code, message, param } }`) with its HTTP status. */
export class StripeApiError extends Error {
  /**
   * Raised once the call had begun its work (a transfer refused for the balance or the
   * destination), not while its parameters were checked: Stripe saves such an answer under the
   * call's `Idempotency-Key` and replays it, as it replays card errors.
   */
  afterExecution = false;

  constructor(
    readonly status: number,
    readonly type: 'invalid_request_error' | 'card_error' | 'idempotency_error' | 'api_error' | 'rate_limit_error',
    message: string,
    readonly extra: { code?: string; param?: string; decline_code?: string; [key: string]: unknown } = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(requestId: string): { error: Record<string, unknown> } {
    const { code, param, ...rest } = this.extra;
    return {
      error: {
        ...(code !== undefined && { code, doc_url: `https://docs.stripe.com/error-codes/${code.replace(/_/g, '-')}` }),
        message: this.message,
        ...(param !== undefined && { param }),
        request_log_url: `https://dashboard.stripe.com/test/logs/${requestId}`,
        type: this.type,
        ...rest,
      },
    };
  }
}

/** Marks an error as raised after the call began its work (saved for `Idempotency-Key` replay). */
export function executed(err: StripeApiError): StripeApiError {
  err.afterExecution = true;
  return err;
}

export const invalid = (message: string, param?: string, code?: string) =>
  new StripeApiError(400, 'invalid_request_error', message, { ...(code && { code }), ...(param && { param }) });

export const missing = (kind: string, id: string, param = 'id') =>
  new StripeApiError(404, 'invalid_request_error', `No such ${kind}: '${id}'`, { code: 'resource_missing', param });

/** The bracket path of a key: `line_items[0][price]` -> ['line_items', '0', 'price']; `expand[]` -> ['expand', '']. */
function pathOf(key: string): string[] | undefined {
  const head = /^[^[\]]+/.exec(key);
  if (!head) return undefined;
  const parts = [head[0]];
  let rest = key.slice(head[0].length);
  while (rest) {
    const m = /^\[([^[\]]*)\]/.exec(rest);
    if (!m) return undefined;
    parts.push(m[1]);
    rest = rest.slice(m[0].length);
  }
  return parts;
}

/**
 * Reads `a=1&b[c]=2&d[0]=x&d[1]=y&e[]=z` into `{ a: '1', b: { c: '2' }, d: ['x', 'y'], e: ['z'] }`.
 * Numeric keys under a name make an array (in index order, as the `stripe` client numbers them);
 * `[]` appends. A key that is not well formed is refused, naming it.
 */
export function parseForm(text: string): Params {
  const root: Params = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const path = pathOf(rawKey);
    if (!path) throw invalid(`Invalid parameter name: ${rawKey}`, rawKey);
    let node: Params | ParamValue[] = root;
    for (let i = 0; i < path.length; i++) {
      const part = path[i];
      const last = i === path.length - 1;
      const nextIsIndex = !last && (path[i + 1] === '' || /^\d+$/.test(path[i + 1]));
      if (Array.isArray(node)) {
        if (part !== '' && !/^\d+$/.test(part)) throw invalid(`Invalid array index in ${rawKey}`, rawKey);
        const index = part === '' ? node.length : Number(part);
        if (index > node.length) throw invalid(`Invalid array: ${rawKey} skips an index`, rawKey);
        if (last) node[index] = value;
        else {
          node[index] ??= nextIsIndex ? [] : {};
          node = node[index] as Params | ParamValue[];
        }
      } else {
        if (last) node[part] = value;
        else {
          const existing: ParamValue | undefined = node[part];
          if (existing === undefined) node[part] = nextIsIndex ? [] : {};
          else if (typeof existing === 'string') throw invalid(`Invalid parameter: ${rawKey} is given both as a value and as a hash`, rawKey);
          node = node[part] as Params | ParamValue[];
        }
      }
    }
  }
  return root;
}

/** `{ 0: x, 1: y }` given where an array is expected (a client that numbers keys) reads as `[x, y]`. */
function asArray(value: ParamValue): ParamValue[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.every((k, i) => k === String(i))) return keys.map((k) => value[k]);
  }
  return undefined;
}

/**
 * Reads one request's parameters, with Stripe's messages for what is wrong. `prefix` names the
 * hash being read (`line_items[0]`) so that errors name the full parameter.
 */
export class Reader {
  private readonly seen = new Set<string>();

  constructor(
    readonly params: Params,
    private readonly prefix = '',
  ) {}

  private name(key: string): string {
    return this.prefix ? `${this.prefix}[${key}]` : key;
  }

  private raw(key: string): ParamValue | undefined {
    this.seen.add(key);
    return this.params[key];
  }

  has(key: string): boolean {
    return this.params[key] !== undefined;
  }

  /** A string, or `undefined` when absent; `''` (Stripe's "unset") is returned as is. */
  string(key: string, opts: { required?: boolean; max?: number } = {}): string | undefined {
    const v = this.raw(key);
    if (v === undefined) {
      if (opts.required) throw invalid(`Missing required param: ${this.name(key)}.`, this.name(key), 'parameter_missing');
      return undefined;
    }
    if (typeof v !== 'string') throw invalid(`Invalid string: ${this.name(key)} must be a string, not a hash or an array`, this.name(key));
    if (opts.max !== undefined && v.length > opts.max) {
      throw invalid(`Invalid string: ${this.name(key)} must be at most ${opts.max} characters long`, this.name(key));
    }
    if (opts.required && v === '') throw invalid(`Missing required param: ${this.name(key)}.`, this.name(key), 'parameter_missing');
    return v;
  }

  required(key: string, opts: { max?: number } = {}): string {
    return this.string(key, { ...opts, required: true })!;
  }

  integer(key: string, opts: { required?: boolean; min?: number; max?: number } = {}): number | undefined {
    const v = this.string(key, { required: opts.required });
    if (v === undefined) return undefined;
    if (!/^-?\d+$/.test(v)) throw invalid(`Invalid integer: ${v}`, this.name(key));
    const n = Number(v);
    if (!Number.isSafeInteger(n)) throw invalid(`Invalid integer: ${v}`, this.name(key));
    if (opts.min !== undefined && n < opts.min) throw invalid(`This value must be greater than or equal to ${opts.min}.`, this.name(key));
    if (opts.max !== undefined && n > opts.max) throw invalid(`This value must be less than or equal to ${opts.max}.`, this.name(key));
    return n;
  }

  boolean(key: string): boolean | undefined {
    const v = this.string(key);
    if (v === undefined) return undefined;
    if (v !== 'true' && v !== 'false') throw invalid(`Invalid boolean: ${v}`, this.name(key));
    return v === 'true';
  }

  oneOf<T extends string>(key: string, values: readonly T[], opts: { required?: boolean } = {}): T | undefined {
    const v = this.string(key, opts);
    if (v === undefined) return undefined;
    if (!(values as readonly string[]).includes(v)) {
      throw invalid(`Invalid ${this.name(key)}: must be one of ${values.join(', ')}`, this.name(key));
    }
    return v as T;
  }

  /** A URL (http or https), as Stripe checks `success_url`, `return_url` and webhook URLs. */
  url(key: string, opts: { required?: boolean } = {}): string | undefined {
    const v = this.string(key, { ...opts, max: 5000 });
    if (v === undefined) return undefined;
    let url: URL;
    try {
      // Stripe's `{CHECKOUT_SESSION_ID}` template is not a valid URL character sequence on its own.
      url = new URL(v.replace('{CHECKOUT_SESSION_ID}', 'x'));
    } catch {
      throw invalid(`Not a valid URL`, this.name(key), 'url_invalid');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(`Not a valid URL`, this.name(key), 'url_invalid');
    return v;
  }

  /** A nested hash, read with its own reader (errors name `key[...]`). */
  hash(key: string, opts: { required?: boolean } = {}): Reader | undefined {
    const v = this.raw(key);
    if (v === undefined) {
      if (opts.required) throw invalid(`Missing required param: ${this.name(key)}.`, this.name(key), 'parameter_missing');
      return undefined;
    }
    if (typeof v === 'string') {
      if (v === '') return new Reader({}, this.name(key));
      throw invalid(`Invalid hash: ${this.name(key)} must be a hash`, this.name(key));
    }
    if (Array.isArray(v)) throw invalid(`Invalid hash: ${this.name(key)} must be a hash, not an array`, this.name(key));
    return new Reader(v, this.name(key));
  }

  /** An array of hashes, each with its own reader. */
  hashes(key: string, opts: { required?: boolean } = {}): Reader[] | undefined {
    const v = this.raw(key);
    if (v === undefined || v === '') {
      if (opts.required) throw invalid(`Missing required param: ${this.name(key)}.`, this.name(key), 'parameter_missing');
      return v === '' ? [] : undefined;
    }
    const items = asArray(v);
    if (!items) throw invalid(`Invalid array: ${this.name(key)} must be an array`, this.name(key));
    return items.map((item, i) => {
      if (typeof item !== 'object' || Array.isArray(item)) throw invalid(`Invalid hash: ${this.name(key)}[${i}] must be a hash`, `${this.name(key)}[${i}]`);
      return new Reader(item, `${this.name(key)}[${i}]`);
    });
  }

  /** An array of strings (`expand[]`, `enabled_events[]`, `types[]`). */
  strings(key: string): string[] | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    if (v === '') return [];
    const items = typeof v === 'string' ? undefined : asArray(v);
    if (!items || items.some((i) => typeof i !== 'string')) throw invalid(`Invalid array: ${this.name(key)} must be an array of strings`, this.name(key));
    return items as string[];
  }

  /**
   * `metadata`: up to 50 keys of at most 40 characters, values of at most 500; `''` as a value
   * removes the key and `metadata=''` removes them all (returned as `null`).
   */
  metadata(key = 'metadata'): Record<string, string> | null | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    if (v === '') return null;
    if (typeof v !== 'object' || Array.isArray(v)) throw invalid(`Invalid hash: ${this.name(key)} must be a hash`, this.name(key));
    const out: Record<string, string> = {};
    for (const [k, value] of Object.entries(v)) {
      if (typeof value !== 'string') throw invalid(`Invalid ${this.name(key)}[${k}]: metadata values must be strings`, `${this.name(key)}[${k}]`);
      if (k.length > 40) throw invalid(`Metadata keys can have up to 40 characters; ${k} has ${k.length}.`, `${this.name(key)}[${k}]`);
      if (value.length > 500) throw invalid(`Metadata values can have up to 500 characters; ${this.name(key)}[${k}] has ${value.length}.`, `${this.name(key)}[${k}]`);
      out[k] = value;
    }
    if (Object.keys(out).length > 50) throw invalid('Metadata can have up to 50 keys.', this.name(key));
    return out;
  }

  /** Refuses a parameter nobody read, as Stripe refuses an unknown one. Call after reading. */
  done(): void {
    for (const key of Object.keys(this.params)) {
      if (!this.seen.has(key)) throw invalid(`Received unknown parameter: ${this.name(key)}`, this.name(key), 'parameter_unknown');
    }
  }
}

/** Metadata after an update: keys given `''` are removed, `null` clears them all. */
export function mergeMetadata(current: Record<string, string>, update: Record<string, string> | null | undefined): Record<string, string> {
  if (update === undefined) return current;
  if (update === null) return {};
  const next = { ...current };
  for (const [k, v] of Object.entries(update)) {
    if (v === '') delete next[k];
    else next[k] = v;
  }
  return next;
}
