/**
 * Runtime configuration, served as `/config.json` beside the static build so one build
 * can be pointed at any stage (the local twin, dev, prod) without rebuilding.
 */
export interface AppConfig {
  /** Base URL of the HTTP API, without a trailing slash. */
  apiUrl: string;
  stage: string;
  contactEmail: string;
  /** Pre-launch mode: `/` shows the pre-launch landing. Defaults to true until launch. */
  prelaunch: boolean;
  userPoolId?: string;
  userPoolClientId?: string;
  userPoolEndpoint?: string;
  region?: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function requireString(raw: Record<string, unknown>, key: string): string {
  const value = raw[key];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ConfigError(`config.json: "${key}" must be a non-empty string`);
  }
  return value.trim();
}

function optionalString(raw: Record<string, unknown>, key: string): string | undefined {
  const value = raw[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Validates the parsed JSON; exported for tests. */
export function parseConfig(raw: unknown): AppConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError('config.json must contain a JSON object');
  }
  const obj = raw as Record<string, unknown>;
  return {
    apiUrl: requireString(obj, 'apiUrl').replace(/\/+$/, ''),
    stage: requireString(obj, 'stage'),
    contactEmail: requireString(obj, 'contactEmail'),
    prelaunch: typeof obj.prelaunch === 'boolean' ? obj.prelaunch : true,
    userPoolId: optionalString(obj, 'userPoolId'),
    userPoolClientId: optionalString(obj, 'userPoolClientId'),
    userPoolEndpoint: optionalString(obj, 'userPoolEndpoint'),
    region: optionalString(obj, 'region'),
  };
}

let configPromise: Promise<AppConfig> | undefined;

/**
 * Fetches `/config.json` once per page load; later calls share the same promise. This module has
 * no React in it, so the tiny entry (main.tsx) can start the request while the app itself loads.
 */
export function loadConfig(): Promise<AppConfig> {
  configPromise ??= fetch('/config.json', { cache: 'no-store', headers: { accept: 'application/json' } })
    .then(async (res) => {
      if (!res.ok) throw new ConfigError(`config.json: HTTP ${res.status}`);
      return parseConfig(await res.json());
    })
    .catch((err: unknown) => {
      configPromise = undefined; // allow a retry
      throw err;
    });
  return configPromise;
}

