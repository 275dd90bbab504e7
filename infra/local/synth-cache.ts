import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildSync } from 'esbuild';

/**
 * What the twin and the tests build once and reuse (decision 034): synthesized apps here, the
 * functions' bundles in `bundle-cache.ts`. It lives in the repository's gitignored `.twin/`, so
 * a fresh clone starts empty; `TWIN_CACHE=off` turns it off, `TWIN_CACHE_DIR` moves it.
 */
const ROOT = path.resolve(__dirname, '..', '..');
export const CACHE_DIR = process.env.TWIN_CACHE_DIR ?? path.join(ROOT, '.twin', 'cache');
export const cacheOff = () => process.env.TWIN_CACHE === 'off';

export const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** Writes a file whole or not at all: readers in other processes never see half of it. */
export function writeAtomically(file: string, data: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

/** Removes files of `dir` unused (not read or written) for `maxAgeDays`, so the cache does not grow forever. */
export function pruneUnused(dir: string, maxAgeDays = 7): void {
  const oldest = Date.now() - maxAgeDays * 24 * 3600 * 1000;
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const file = path.join(dir, name);
    try {
      if (fs.statSync(file).mtimeMs < oldest) fs.rmSync(file, { force: true });
    } catch {
      // removed by another process meanwhile
    }
  }
}

/** Marks a cached file as used (its mtime), for `pruneUnused`. */
export function touch(file: string): void {
  const now = new Date();
  try {
    fs.utimesSync(file, now, now);
  } catch {
    // pruned meanwhile: the caller has read it already
  }
}

// --- Synthesized apps ---------------------------------------------------------------------

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- CloudFormation JSON, as in template.ts
type Json = any;

/** A nested stack's template, the logical id of its resource in its parent, and the parent's path ('' for the stack). */
interface NestedStackTemplate {
  logicalId: string;
  parent: string;
  template: Json;
}

/** What one synthesis of the CDK app yields. */
export interface SynthesizedApp {
  /** The stack's template. */
  template: Json;
  /** Each nested stack, by its construct path under the stack ('Generation', 'Alarms'). */
  nested: Record<string, NestedStackTemplate>;
  /** cdk-nag's findings when synthesized with it: its validation report (null: none) and synth's error, if any. */
  nag?: { report: Json | null; error?: string };
}

const SYNTH_FORMAT = 1;
const memo = new Map<string, SynthesizedApp>();
let inputsDigest: string | undefined;

/**
 * The app synthesized with `context`, from the cache when the same inputs were synthesized
 * before (by this process or another: a run's twins, test files and benches share one synthesis).
 * The key is the context, the CDK environment variables and a digest of every input of the
 * app: the content of each repository file its code imports (as esbuild lists them from the
 * app's entry), the seed files it reads, and the versions of the CDK packages.
 *
 * Loopback URLs in the context (a twin's ports, which differ on every start) are replaced by
 * fixed stand-ins for the synthesis and put back into the templates after it, so every twin of
 * a run shares one synthesis whatever its ports; `test/infra/synth-cache.test.ts` checks that
 * the result equals a direct synthesis with the real URLs.
 *
 * `synthesize` is only called on a miss; `nag: true` asks for an entry that ran cdk-nag.
 * A context that deploys the sites (their built files are inputs too) is never cached.
 */
export function cachedSynth(
  appEntry: string,
  context: Record<string, unknown>,
  nag: boolean,
  synthesize: (context: Record<string, unknown>, nag: boolean) => SynthesizedApp,
): SynthesizedApp {
  if (cacheOff() || context.deploySites) return synthesize(context, nag);
  const { context: standIn, restore } = withLoopbackStandIns(context);
  const key = sha256(
    JSON.stringify({
      format: SYNTH_FORMAT,
      context: standIn,
      env: { CDK_DEFAULT_ACCOUNT: process.env.CDK_DEFAULT_ACCOUNT, CDK_DEFAULT_REGION: process.env.CDK_DEFAULT_REGION },
      inputs: (inputsDigest ??= appInputsDigest(appEntry)),
    }),
  );
  const file = path.join(CACHE_DIR, 'synth', `${key}.json`);
  let app = memo.get(key);
  if (!app && fs.existsSync(file)) {
    app = JSON.parse(fs.readFileSync(file, 'utf8')) as SynthesizedApp;
    touch(file);
  }
  if (!app || (nag && !app.nag)) {
    app = synthesize(standIn, nag);
    writeAtomically(file, JSON.stringify(app));
    pruneUnused(path.dirname(file));
  }
  memo.set(key, app);
  return restore(app);
}

/** Digest of what the app's synthesis reads: imported repository files, seed files, CDK versions. */
function appInputsDigest(appEntry: string): string {
  const { metafile } = buildSync({
    entryPoints: [appEntry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    packages: 'external',
    logLevel: 'silent',
    absWorkingDir: ROOT,
    outfile: 'app.js',
  });
  const seedDir = path.join(ROOT, 'infra', 'seed');
  const files = [
    ...Object.keys(metafile!.inputs).map((f) => path.join(ROOT, f)),
    ...fs.readdirSync(seedDir, { recursive: true, encoding: 'utf8' }).map((f) => path.join(seedDir, f)),
  ].filter((f) => fs.statSync(f).isFile());
  const versions = ['aws-cdk-lib', 'constructs', 'cdk-nag'].map((pkg) => `${pkg}@${JSON.parse(fs.readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')).version}`);
  return sha256(JSON.stringify([versions, files.sort().map((f) => [path.relative(ROOT, f), sha256(fs.readFileSync(f))])]));
}

const LOOPBACK = /http:\/\/127\.0\.0\.1:(\d+)/g;
const STAND_IN_PORT = 65101;

/**
 * The context with each distinct loopback port replaced by a stand-in (65101, 65102, ... in
 * order of appearance), and a function that puts the real ports back into a synthesized app.
 */
function withLoopbackStandIns(context: Record<string, unknown>): { context: Record<string, unknown>; restore: (app: SynthesizedApp) => SynthesizedApp } {
  const text = JSON.stringify(context);
  const real = [...new Set([...text.matchAll(LOOPBACK)].map((m) => m[1]))];
  // A copy either way: callers may change what they get, the memo keeps the original.
  if (real.length === 0) return { context, restore: (app) => structuredClone(app) };
  const standIn = new Map(real.map((port, i) => [port, String(STAND_IN_PORT + i)]));
  const back = new Map(real.map((port, i) => [String(STAND_IN_PORT + i), port]));
  const swap = (s: string, ports: Map<string, string>) => s.replace(/(127\.0\.0\.1:)(\d+)/g, (m, host: string, port: string) => (ports.has(port) ? `${host}${ports.get(port)}` : m));
  return {
    context: JSON.parse(text.replace(LOOPBACK, (m) => swap(m, standIn))) as Record<string, unknown>,
    restore: (app) => JSON.parse(swap(JSON.stringify(app), back)) as SynthesizedApp,
  };
}
