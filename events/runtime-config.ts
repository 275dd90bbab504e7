/**
 * The runtime configuration both browser apps (web/, admin/) read from `/config.json`, served beside
 * the static build so one build can be pointed at any stage (the local twin, dev, prod) without
 * rebuilding. Zod-free on purpose: the public site loads this on every page, and zod stays off the
 * marketing pages.
 */

class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads the fields of a parsed `/config.json` object, failing with a message that names the field. */
export interface ConfigFields {
  string(key: string): string;
  optionalString(key: string): string | undefined;
  /** A base URL without its trailing slashes. */
  url(key: string): string;
  optionalUrl(key: string): string | undefined;
  boolean(key: string, fallback: boolean): boolean;
}

/** Validates that `raw` is a JSON object and hands its fields to `read`. */
export function parseRuntimeConfig<T>(raw: unknown, read: (fields: ConfigFields) => T): T {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError('config.json must contain a JSON object');
  }
  const obj = raw as Record<string, unknown>;
  const optionalString = (key: string) => {
    const value = obj[key];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const string = (key: string) => {
    const value = optionalString(key);
    if (value === undefined) throw new ConfigError(`config.json: "${key}" must be a non-empty string`);
    return value;
  };
  const trimSlashes = (url: string | undefined) => url?.replace(/\/+$/, '');
  return read({
    string,
    optionalString,
    url: (key) => trimSlashes(string(key))!,
    optionalUrl: (key) => trimSlashes(optionalString(key)),
    boolean: (key, fallback) => {
      const value = obj[key];
      return typeof value === 'boolean' ? value : fallback;
    },
  });
}

/** Fetches `/config.json` (same origin, never cached) and parses it. */
export async function fetchRuntimeConfig<T>(parse: (raw: unknown) => T): Promise<T> {
  const res = await fetch('/config.json', { cache: 'no-store', headers: { accept: 'application/json' } });
  if (!res.ok) throw new ConfigError(`config.json: HTTP ${res.status}`);
  return parse(await res.json());
}

interface DevServer {
  middlewares: { use(path: string, handler: (req: unknown, res: { setHeader(name: string, value: string): void; end(body: string): void }) => void): void };
}

/**
 * A Vite plugin for `vite dev`, which has neither the deployment's `/config.json` nor the twin's:
 * it answers `/config.json` with `config()`. It only runs in the dev server, never in the build.
 * Typed structurally so this module needs no Vite types in the browser bundle.
 */
export function devRuntimeConfig(config: () => Record<string, unknown>) {
  return {
    name: 'dev-runtime-config',
    apply: 'serve' as const,
    configureServer(server: DevServer) {
      server.middlewares.use('/config.json', (_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(config()));
      });
    },
  };
}
