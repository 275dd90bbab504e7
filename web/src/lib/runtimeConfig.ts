import { fetchRuntimeConfig, parseRuntimeConfig } from '../../../events/runtime-config';

/** The public site's settings from `/config.json` (see events/runtime-config.ts). */
export interface AppConfig {
  /** Base URL of the HTTP API, without a trailing slash. */
  apiUrl: string;
  stage: string;
  contactEmail: string;
  /** Pre-launch mode: `/` shows the pre-launch landing. Defaults to true until launch. */
  prelaunch: boolean;
  /* The user pool's settings are read by the account routes only (web/src/auth/account-config.ts). */
}

/** Validates the parsed JSON. */
function parseConfig(raw: unknown): AppConfig {
  return parseRuntimeConfig(raw, (f) => ({
    apiUrl: f.url('apiUrl'),
    stage: f.string('stage'),
    contactEmail: f.string('contactEmail'),
    prelaunch: f.boolean('prelaunch', true),
  }));
}

let configPromise: Promise<AppConfig> | undefined;

/**
 * Fetches `/config.json` once per page load; later calls share the same promise. This module has
 * no React in it, so the tiny entry (main.tsx) can start the request while the app itself loads.
 */
export function loadConfig(): Promise<AppConfig> {
  configPromise ??= fetchRuntimeConfig(parseConfig).catch((err: unknown) => {
    configPromise = undefined; // allow a retry
    throw err;
  });
  return configPromise;
}
