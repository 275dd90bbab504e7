import { fetchRuntimeConfig, parseRuntimeConfig } from '../../events/runtime-config';

/** The console's settings from `/config.json` (see events/runtime-config.ts). */
export interface AdminConfig {
  /** Base URL of the HTTP API, without a trailing slash. */
  apiUrl: string;
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  /** Only on the local twin, where cognito-local stands in for Cognito. */
  userPoolEndpoint?: string;
  stage: string;
  /** The public site, for links to its license pages. */
  siteUrl?: string;
}

/** Validates the parsed JSON. */
function parseConfig(raw: unknown): AdminConfig {
  return parseRuntimeConfig(raw, (f) => ({
    apiUrl: f.url('apiUrl'),
    region: f.string('region'),
    userPoolId: f.string('userPoolId'),
    userPoolClientId: f.string('userPoolClientId'),
    userPoolEndpoint: f.optionalUrl('userPoolEndpoint'),
    stage: f.string('stage'),
    siteUrl: f.optionalUrl('siteUrl'),
  }));
}

/** Fetches `/config.json` (same origin) and validates it. */
export function loadConfig(): Promise<AdminConfig> {
  return fetchRuntimeConfig(parseConfig);
}
