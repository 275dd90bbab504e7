/**
 * Runtime configuration, served as `/config.json` beside the static build so one build
 * can be pointed at any stage (the local twin, dev, prod) without rebuilding.
 */
export interface AdminConfig {
  /** Base URL of the HTTP API, without a trailing slash. */
  apiUrl: string;
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  /** Only on the local twin, where cognito-local stands in for Cognito. */
  userPoolEndpoint?: string;
  stage: string;
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
export function parseConfig(raw: unknown): AdminConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError('config.json must contain a JSON object');
  }
  const obj = raw as Record<string, unknown>;
  return {
    apiUrl: requireString(obj, 'apiUrl').replace(/\/+$/, ''),
    region: requireString(obj, 'region'),
    userPoolId: requireString(obj, 'userPoolId'),
    userPoolClientId: requireString(obj, 'userPoolClientId'),
    userPoolEndpoint: optionalString(obj, 'userPoolEndpoint')?.replace(/\/+$/, ''),
    stage: requireString(obj, 'stage'),
  };
}

/** Fetches `/config.json` (same origin) and validates it. */
export async function loadConfig(): Promise<AdminConfig> {
  const res = await fetch('/config.json', { cache: 'no-store', headers: { accept: 'application/json' } });
  if (!res.ok) throw new ConfigError(`config.json: HTTP ${res.status}`);
  return parseConfig(await res.json());
}
