import type { BuildOptions } from 'esbuild';

/**
 * How every Lambda is bundled. CDK's NodejsFunction and the local twin (which runs the same
 * bundles in worker threads) and the bundle benchmark all use these options, so what is
 * measured and run locally is what is deployed.
 */
export const NODE_TARGET = 'node22';
/** The Lambda runtime provides the AWS SDK v3; bundling it again would only add weight. */
export const EXTERNAL_MODULES = ['@aws-sdk/*'];

/** `nodeModules`: packages installed beside the bundle instead of bundled (AppFunction's option). */
export function esbuildOptions(entry: string, outfile: string, nodeModules: string[] = []): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: NODE_TARGET,
    format: 'cjs',
    minify: true,
    sourcemap: false,
    external: [...EXTERNAL_MODULES, ...nodeModules],
    logLevel: 'silent',
  };
}
