import { createContext, useContext } from 'react';
import type { AppConfig } from './lib/runtimeConfig';

export { loadConfig, type AppConfig } from './lib/runtimeConfig';

/**
 * The runtime settings, for components. The app renders only once /config.json is in (start.tsx),
 * so pages always read the real values; the build renders with build-time values instead.
 */
export const ConfigContext = createContext<AppConfig | null>(null);

export function useConfig(): AppConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useConfig must be used inside <ConfigContext value={config}>');
  return config;
}
