/**
 * The abuse bots on the twin (issue 11), one after the other, each starting its own twin:
 * `waitlist.ts` (scripted waitlist signups) and `upload-urls.ts` (10,000 upload URLs), each
 * beside a real person doing the same thing from another network. Each prints its figures and
 * exits non-zero when the bot got through or the person was stopped.
 *
 *   npm run bench:bots [-- --quick]
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const BOTS = ['waitlist', 'upload-urls'];
const TSX = path.resolve(__dirname, '..', '..', '..', 'node_modules', 'tsx', 'dist', 'cli.mjs');

function run(file: string, args: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX, file, ...args], { stdio: 'inherit', env: process.env });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

async function main() {
  const args = process.argv.slice(2);
  let failed = 0;
  for (const bot of BOTS) {
    const file = path.join(__dirname, `${bot}.ts`);
    if (!fs.existsSync(file)) continue;
    console.log(`\n== bot: ${bot}`);
    if ((await run(file, args)) !== 0) failed += 1;
  }
  if (failed) throw new Error(`${failed} bot run(s) failed`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
