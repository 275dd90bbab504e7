import { testApp } from './stack';

/**
 * The infra project's global setup: synthesizes the test stage's app once, with cdk-nag, before
 * any file runs, so the files that use it (most of them) read it from the cache instead of each
 * synthesizing it again (decision 034). Files with other context synthesize theirs on first use.
 */
export default function synthesizeTestApp(): void {
  const started = Date.now();
  testApp({}, { nag: true });
  process.stderr.write(`\nTest app synthesized (or read from the cache) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
