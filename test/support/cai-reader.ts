// The Content Authenticity Initiative's own reader (`@contentauth/c2pa-web`, WASM) in Chromium:
// an independent check of the Content Credentials we write (decision 062).
import * as http from 'node:http';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';

/** What the reader reports of a file: its manifest store as JSON, or null when the file has none. */
export interface CaiReading {
  store: null | {
    active_manifest?: string;
    manifests: Record<string, { assertions?: Array<{ label: string; data: unknown }>; signature_info?: { issuer?: string; common_name?: string; alg?: string } }>;
    validation_state?: string;
    validation_status?: Array<{ code: string }>;
    validation_results?: { activeManifest?: { success?: Array<{ code: string }>; failure?: Array<{ code: string }>; informational?: Array<{ code: string }> } };
  };
}

const ENTRY = `
import { createC2pa } from '@contentauth/c2pa-web/inline';
window.readCredentials = async (bytes, type) => {
  const c2pa = await createC2pa();
  try {
    const reader = await c2pa.reader.fromBlob(type, new Blob([new Uint8Array(bytes)], { type }));
    return { store: reader ? await reader.manifestStore() : null };
  } finally {
    c2pa.dispose();
  }
};
`;

/**
 * A page on a loopback server that has the reader, and `read(file)` that runs it there. The reader
 * is bundled once per call (a second or two).
 */
export async function caiReader(browser: Browser): Promise<{ read: (file: Buffer, type?: string) => Promise<CaiReading>; close: () => Promise<void> }> {
  const bundle = await build({ stdin: { contents: ENTRY, resolveDir: process.cwd(), loader: 'js' }, bundle: true, format: 'iife', write: false, logLevel: 'silent' });
  const script = bundle.outputFiles[0].contents;
  const server = http.createServer((req, res) => {
    if (req.url === '/reader.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><script src="/reader.js"></script>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
  await page.waitForFunction(() => 'readCredentials' in window);
  return {
    read: (file, type = 'image/png') =>
      page.evaluate(
        ([bytes, t]) => (window as unknown as { readCredentials: (b: number[], t: string) => Promise<CaiReading> }).readCredentials(bytes, t),
        [[...file], type] as [number[], string],
      ),
    close: async () => {
      await page.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
