/**
 * Upload-URL bot on the twin (issue 11, decision 013): a script asks POST /founding-uploads for
 * 10,000 upload URLs from one network, in 80-file requests, three ways (one address with one
 * session; one address with a new session each time; a new address and session each time),
 * while a real applicant on another network asks for their 40 URLs, uploads 40 photos, signs
 * up and confirms by the emailed link. Prints what the bot got (URLs issued, requests refused
 * by which limit) and what the applicant got (answers and latencies).
 *
 *   npm run bench:bots                       (both bots; this one alone: tsx test/bench/bots/upload-urls.ts)
 *   tsx test/bench/bots/upload-urls.ts --quick   (1,000 URLs; CI runs it)
 *
 * Networks: the twin's gateway takes the caller's address from the socket, as CloudFront does
 * before it sets `cloudfront-viewer-address` for the API; the bot connects from one loopback
 * address and the applicant from another (all of 127.0.0.0/8 is loopback on Linux).
 * Exits non-zero if the bot got more URLs than the per-network limit allows, or the applicant
 * was refused anything.
 */
import sharp from 'sharp';
import { MAX_UPLOADS_PER_IP_PER_HOUR, UPLOAD_LIMIT_MESSAGES, type FoundingUploadResponse } from '../../../events/founding';
import { postJsonFrom, type FromAnswer } from '../../support/from-address';
import { eventually } from '../../support/eventually';
import type { TestTwin } from '../../support/twin';
import { benchTwin } from '../twin';

const QUICK = process.argv.includes('--quick');
const TOTAL_URLS = QUICK ? 1_000 : 10_000;
const PER_REQUEST = 80;
const BOT_NETWORK = '127.66.0.1';
const APPLICANT_NETWORK = '127.77.0.1';
const APPLICANT_PHOTOS = 40;

type Strategy = 'one address, one session' | 'one address, new sessions' | 'new address and session each time';
const STRATEGIES: Strategy[] = ['one address, one session', 'one address, new sessions', 'new address and session each time'];

const LIMIT_OF: Record<string, string> = {
  [UPLOAD_LIMIT_MESSAGES.ip]: 'per network (400 an hour)',
  [UPLOAD_LIMIT_MESSAGES.address]: 'per address (200 a day)',
  [UPLOAD_LIMIT_MESSAGES.session]: 'per session (120)',
  [UPLOAD_LIMIT_MESSAGES.otherAddress]: 'session of another address',
};

const files = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ name: `${prefix}-${i + 1}.jpg`, type: 'image/jpeg', size: 200_000 }));

interface BotFigures {
  requested: number;
  issued: number;
  requests: number;
  refusedBy: Map<string, number>;
  byStrategy: Map<Strategy, { issued: number; refused: number }>;
}

/** Runs the bot, counting into `figures` as it goes. */
async function runBot(twin: TestTwin, figures: BotFigures): Promise<BotFigures> {
  const stamp = Date.now().toString(36);
  const sessions: Partial<Record<Strategy, string>> = {};
  let n = 0;
  while (figures.requested < TOTAL_URLS) {
    const strategy = STRATEGIES[n % STRATEGIES.length];
    const email = strategy === 'new address and session each time' ? `bot.${stamp}.${n}@example.com` : `bot.${stamp}.${strategy.length}@example.com`;
    const uploadSession = strategy === 'one address, one session' ? sessions[strategy] : undefined;
    const count = Math.min(PER_REQUEST, TOTAL_URLS - figures.requested);
    const res = await postJsonFrom(BOT_NETWORK, `${twin.urls.api}/founding-uploads`, { email, files: files(count, 'bot'), ...(uploadSession ? { uploadSession } : {}) });
    figures.requested += count;
    figures.requests += 1;
    const mine = figures.byStrategy.get(strategy)!;
    if (res.status === 200) {
      const answer = res.json as FoundingUploadResponse;
      sessions[strategy] ??= answer.uploadSession;
      figures.issued += answer.uploads.length;
      mine.issued += answer.uploads.length;
    } else {
      const limit = LIMIT_OF[res.json?.error] ?? `${res.status} ${res.json?.error ?? res.text}`;
      figures.refusedBy.set(limit, (figures.refusedBy.get(limit) ?? 0) + 1);
      mine.refused += 1;
    }
    n += 1;
  }
  return figures;
}

interface ApplicantFigures {
  steps: Array<{ step: string; status: number; ms: number }>;
}

async function runApplicant(twin: TestTwin): Promise<ApplicantFigures> {
  const steps: ApplicantFigures['steps'] = [];
  const record = (step: string, res: FromAnswer) => {
    steps.push({ step, status: res.status, ms: res.ms });
    if (res.status !== 200) throw new Error(`the applicant's ${step} answered ${res.status}: ${res.text}`);
    return res;
  };
  const email = `real.applicant.${Date.now().toString(36)}@example.com`;
  const photos = await Promise.all(
    Array.from({ length: APPLICANT_PHOTOS }, (_, i) =>
      sharp({ create: { width: 520, height: 520, channels: 3, background: { r: (i * 37) % 256, g: (i * 91) % 256, b: (i * 53) % 256 } } }).jpeg().toBuffer(),
    ),
  );
  const urls = record(
    'POST /founding-uploads (40 URLs)',
    await postJsonFrom(APPLICANT_NETWORK, `${twin.urls.api}/founding-uploads`, { email, files: photos.map((p, i) => ({ name: `me-${i + 1}.jpg`, type: 'image/jpeg', size: p.length })) }),
  );
  const answer = urls.json as FoundingUploadResponse;
  const putStart = performance.now();
  for (let i = 0; i < answer.uploads.length; i += 6) {
    await Promise.all(
      answer.uploads.slice(i, i + 6).map(async (u, j) => {
        const put = await fetch(u.url, { method: 'PUT', headers: u.headers, body: new Uint8Array(photos[i + j]) });
        if (put.status !== 200) throw new Error(`the applicant's upload answered ${put.status}`);
      }),
    );
  }
  steps.push({ step: `PUT x${APPLICANT_PHOTOS} (presigned)`, status: 200, ms: performance.now() - putStart });
  await twin.idle();
  record(
    'POST /founding-talent-signup',
    await postJsonFrom(APPLICANT_NETWORK, `${twin.urls.api}/founding-talent-signup`, {
      firstName: 'Real',
      lastName: 'Applicant',
      email,
      location: 'Leeds, UK',
      experience: 'Portrait work for five years.',
      age: 34,
      terms: true,
      uploadedFilesCount: APPLICANT_PHOTOS,
      imagePaths: answer.uploads.map((u) => u.key),
      uploadSession: answer.uploadSession,
    }),
  );
  const token = await eventually(
    async () => {
      const mail = (await twin.emails()).find((m) => m.to.includes(email) && /confirm#token=/.test(m.text ?? ''));
      return mail?.text?.match(/confirm#token=([A-Za-z0-9_-]{43})/)?.[1];
    },
    { timeoutMs: 30_000, what: 'a confirmation email to the applicant' },
  );
  record('POST /founding-confirm', await postJsonFrom(APPLICANT_NETWORK, `${twin.urls.api}/founding-confirm`, { token }));
  return { steps };
}

async function main() {
  console.log(`Starting the twin (upload-URL bot, ${TOTAL_URLS.toLocaleString('en')} URLs)...`);
  // Function failures are worth seeing (answers alone say only 500); routine log lines are not.
  const twin = await benchTwin({ log: (line) => /failed|Error|timed out/.test(line) && console.error(`[twin] ${line.slice(0, 400)}`) });
  try {
    // Cold starts are not what is measured: start two instances of the upload function (bot and
    // applicant run side by side) and one of signup and confirm, from a network of their own.
    const warm = (path: string, body: unknown, from: string) => postJsonFrom(from, `${twin.urls.api}${path}`, body);
    await Promise.all([
      warm('/founding-uploads', { email: 'warm.1@example.com', files: files(1, 'warm') }, '127.88.0.1'),
      warm('/founding-uploads', { email: 'warm.2@example.com', files: files(1, 'warm') }, '127.88.0.2'),
      warm('/founding-talent-signup', {}, '127.88.0.3'),
      warm('/founding-confirm', { token: 'A'.repeat(43) }, '127.88.0.4'),
    ]);
    const started = performance.now();
    // The applicant starts once the bot is under way (its first requests answered), and both run to the end.
    const figures: BotFigures = { requested: 0, issued: 0, requests: 0, refusedBy: new Map(), byStrategy: new Map(STRATEGIES.map((s) => [s, { issued: 0, refused: 0 }])) };
    const bot = runBot(twin, figures);
    await eventually(() => figures.requests > 0, { timeoutMs: 60_000, what: 'the bot under way' });
    const [, applicant] = await Promise.all([bot, runApplicant(twin)]);
    const seconds = (performance.now() - started) / 1000;

    console.log('');
    console.log(`Upload-URL bot: one network, ${figures.requests} requests of up to ${PER_REQUEST} files in ${seconds.toFixed(1)} s`);
    console.log(`  URLs requested ${figures.requested.toLocaleString('en')}, issued ${figures.issued}, refused ${figures.requested - figures.issued}`);
    for (const [strategy, f] of figures.byStrategy) console.log(`  ${strategy.padEnd(36)} issued ${String(f.issued).padStart(4)}, requests refused ${f.refused}`);
    console.log('  requests refused, by limit:');
    for (const [limit, count] of [...figures.refusedBy].sort((a, b) => b[1] - a[1])) console.log(`    ${limit.padEnd(34)} ${count}`);
    console.log(`Real applicant (another network, at the same time): ${applicant.steps.every((s) => s.status === 200) ? 'every step answered 200' : 'REFUSED'}`);
    for (const s of applicant.steps) console.log(`  ${s.step.padEnd(36)} ${s.status}  ${s.ms.toFixed(0)} ms`);
    if (figures.issued > MAX_UPLOADS_PER_IP_PER_HOUR) throw new Error(`the bot got ${figures.issued} URLs from one network; the limit is ${MAX_UPLOADS_PER_IP_PER_HOUR} an hour`);
  } finally {
    await twin.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
