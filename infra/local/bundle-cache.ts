import * as fs from 'node:fs';
import * as path from 'node:path';
import { build, version as esbuildVersion } from 'esbuild';
import { esbuildOptions } from '../lib/platform/bundling';
import { CACHE_DIR, cacheOff, pruneUnused, sha256, touch, writeAtomically } from './synth-cache';

const ROOT = path.resolve(__dirname, '..', '..');
const DIR = path.join(CACHE_DIR, 'bundles');

/** One function to bundle: its entry (relative to the repository) and the packages left out of it. */
export interface BundleRequest {
  entry: string;
  nodeModules: string[];
}

/**
 * The path of each request's bundle, built with the deploy options (`infra/lib/platform/bundling.ts`),
 * in order. A bundle is kept under `.twin/cache/bundles/` by content (decision 034): its name is a
 * digest of the esbuild options and version and of the content of every file esbuild read for it
 * (its metafile's inputs, the bundled packages' files included), so a twin start whose functions'
 * sources did not change builds nothing, and one that changed a file rebuilds only the functions
 * that read it. The bundles sit inside the repository, so the packages left out of them (the AWS
 * SDK, sharp) load from its node_modules, as Lambda loads them from the runtime and the bundle's own.
 * Without the cache (`TWIN_CACHE=off`) every bundle is built into `buildDir`.
 */
export async function bundlePaths(requests: BundleRequest[], buildDir: string): Promise<string[]> {
  if (cacheOff()) {
    fs.mkdirSync(buildDir, { recursive: true });
    return Promise.all(
      requests.map(async (r, i) => {
        const out = path.join(buildDir, `${i}-${path.basename(path.dirname(r.entry))}.js`);
        await build(esbuildOptions(path.join(ROOT, r.entry), out, r.nodeModules));
        return out;
      }),
    );
  }
  const digests = new Map<string, string>(); // file -> content digest, read once per call
  const digestOf = (file: string) => {
    let d = digests.get(file);
    if (d === undefined) digests.set(file, (d = fs.existsSync(file) ? sha256(fs.readFileSync(file)) : 'missing'));
    return d;
  };
  const paths = await Promise.all(requests.map((r) => cachedBundle(r, digestOf)));
  pruneUnused(DIR);
  return paths;
}

async function cachedBundle({ entry, nodeModules }: BundleRequest, digestOf: (file: string) => string): Promise<string> {
  const options = { ...esbuildOptions(entry, 'bundle.js', nodeModules), absWorkingDir: ROOT };
  const optionsKey = sha256(JSON.stringify({ options, esbuild: esbuildVersion }));
  // What the last build of these options read: if none of it changed, its bundle is this one.
  const manifest = path.join(DIR, `${optionsKey}.inputs.json`);
  if (fs.existsSync(manifest)) {
    const inputs = JSON.parse(fs.readFileSync(manifest, 'utf8')) as string[];
    const bundle = path.join(DIR, `${bundleKey(optionsKey, inputs, digestOf)}.js`);
    if (fs.existsSync(bundle)) {
      touch(manifest);
      touch(bundle);
      return bundle;
    }
  }
  fs.mkdirSync(DIR, { recursive: true });
  const tmp = path.join(DIR, `${optionsKey}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp.js`);
  try {
    const { metafile } = await build({ ...options, outfile: tmp, metafile: true });
    // Inputs outside the file system (esbuild's disabled modules) follow from the options.
    const inputs = Object.keys(metafile!.inputs).filter((f) => fs.existsSync(path.join(ROOT, f))).sort();
    const bundle = path.join(DIR, `${bundleKey(optionsKey, inputs, digestOf)}.js`);
    fs.renameSync(tmp, bundle);
    writeAtomically(manifest, JSON.stringify(inputs));
    return bundle;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

const bundleKey = (optionsKey: string, inputs: string[], digestOf: (file: string) => string) =>
  sha256(JSON.stringify([optionsKey, inputs.map((f) => [f, digestOf(path.join(ROOT, f))])]));
