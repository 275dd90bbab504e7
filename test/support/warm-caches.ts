// Fills the caches a test run's twins and infra tests read (decision 034) before they start side
// by side, so that none of them synthesizes or bundles what another is building at that moment.
import { warmTwinCaches } from '../../infra/local/twin';
import { testApp } from './stack';

async function main() {
  const started = Date.now();
  // The twin's synthesis runs now; its functions bundle in esbuild's own process meanwhile.
  const twin = warmTwinCaches({ fast: true });
  testApp({}, { nag: true });
  await twin;
  console.log(`Caches warm in ${((Date.now() - started) / 1000).toFixed(1)} s (the twin's app and bundles, the infra tests' app)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
