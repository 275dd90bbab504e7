import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import setupSharedTwin from '../support/twin-global-setup';

/** Browser tests need the built sites and Debian's Chromium (sites built if missing), and the shared twin. */
export default async function globalSetup(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..');
  for (const site of ['web', 'admin']) {
    if (!fs.existsSync(path.join(root, site, 'dist', 'index.html'))) {
      execFileSync('npx', ['vite', 'build', '--config', `${site}/vite.config.ts`, '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
    }
  }
  if (!fs.existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) {
    throw new Error('Browser tests need Chromium: apt-get install -y chromium (or set CHROMIUM_PATH).');
  }
  await setupSharedTwin();
}
