/**
 * Waitlist bot on the twin (issue 11, decision 015): a script signs up 300 scripted addresses
 * to the 200-place waitlist, with the usual tricks (many addresses from one network, the same
 * count spread over several networks, a filled honeypot, one address repeated, guessed
 * confirmation tokens), while a real person on another network signs up, confirms through the
 * link read from the SES emulator and sees their place. Prints what the bot got (answers,
 * refusals by limit, emails it made us send, places taken) and the person's result and latency.
 *
 *   npm run bench:bots                      (every bot; this one alone: tsx test/bench/bots/waitlist.ts)
 *   tsx test/bench/bots/waitlist.ts --quick  (60 addresses; CI runs it)
 *
 * Networks: the twin's gateway takes the caller's address from the socket, as CloudFront does;
 * the bot connects from loopback addresses of its own and the person from another.
 * Exits non-zero if the bot took a place or the person was refused anything.
 */
import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import {
  WAITLIST_ADDRESS_MESSAGE,
  WAITLIST_CONFIRM_IP_MESSAGE,
  WAITLIST_IP_DAILY_MESSAGE,
  WAITLIST_IP_HOURLY_MESSAGE,
  WAITLIST_LINK_INVALID_MESSAGE,
} from '../../../events/waitlist-values';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { postJsonFrom, type FromAnswer } from '../../support/from-address';
import { eventually } from '../../support/eventually';
import type { TestTwin } from '../../support/twin';
import { benchTwin } from '../twin';

const QUICK = process.argv.includes('--quick');
const SCALE = QUICK ? 0.2 : 1;
const BOT_DOMAIN = 'bot.example';
const PERSON_NETWORK = '127.88.0.1';
const PERSON = 'real.person@example.com';
/**
 * Requests the bot keeps in flight. The twin runs each function in one worker (Lambda would
 * run them side by side), so more would only queue behind each other there and time out.
 */
const BOT_CONCURRENCY = 2;

const REASON: Record<string, string> = {
  [WAITLIST_IP_HOURLY_MESSAGE]: 'per network (10 an hour)',
  [WAITLIST_IP_DAILY_MESSAGE]: 'per network (30 a day)',
  [WAITLIST_ADDRESS_MESSAGE]: 'per address (3 emails a day)',
  [WAITLIST_CONFIRM_IP_MESSAGE]: 'confirmations per network (30 an hour)',
  [WAITLIST_LINK_INVALID_MESSAGE]: 'link invalid (guessed token)',
};

interface Trick {
  name: string;
  /** One signup attempt: the network it comes from and its body. */
  attempts: Array<{ from: string; body: Record<string, unknown> }>;
}

function tricks(): Trick[] {
  const n = (x: number) => Math.max(1, Math.round(x * SCALE));
  const stamp = Date.now().toString(36);
  const address = (trick: string, i: number) => `${trick}.${stamp}.${i}@${BOT_DOMAIN}`;
  const oneNetwork = n(100);
  const spread = n(150);
  const honeypot = n(25);
  const repeats = n(25);
  return [
    { name: 'many addresses from one network', attempts: Array.from({ length: oneNetwork }, (_, i) => ({ from: '127.66.1.1', body: { email: address('one', i), terms: true } })) },
    {
      name: 'addresses spread over 15 networks',
      attempts: Array.from({ length: spread }, (_, i) => ({ from: `127.66.2.${(i % 15) + 1}`, body: { email: address('spread', i), terms: true } })),
    },
    {
      name: 'every field filled, honeypot too',
      attempts: Array.from({ length: honeypot }, (_, i) => ({ from: `127.66.3.${(i % 5) + 1}`, body: { email: address('honeypot', i), firstName: 'Bot', terms: true, website: 'https://bot.example' } })),
    },
    {
      name: 'one address again and again',
      attempts: Array.from({ length: repeats }, (_, i) => ({ from: `127.66.4.${i + 1}`, body: { email: address('repeat', 0), terms: true } })),
    },
  ];
}

interface TrickFigures {
  attempts: number;
  answered200: number;
  refusedBy: Map<string, number>;
  other: number;
}

async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** Every answer the bot has had so far, whatever the trick. */
let botAnswers = 0;

function count(figures: TrickFigures, res: FromAnswer) {
  botAnswers += 1;
  figures.attempts += 1;
  if (res.status === 200) figures.answered200 += 1;
  else if (typeof res.json?.error === 'string' && res.status >= 400 && res.status < 500) {
    const reason = REASON[res.json.error] ?? (res.status === 409 ? 'same address already in progress (409)' : res.json.error);
    figures.refusedBy.set(reason, (figures.refusedBy.get(reason) ?? 0) + 1);
  } else figures.other += 1;
}

async function runBot(twin: TestTwin): Promise<Map<string, TrickFigures>> {
  const out = new Map<string, TrickFigures>();
  for (const trick of tricks()) {
    const figures: TrickFigures = { attempts: 0, answered200: 0, refusedBy: new Map(), other: 0 };
    out.set(trick.name, figures);
    await pool(trick.attempts, BOT_CONCURRENCY, async ({ from, body }) => count(figures, await postJsonFrom(from, `${twin.urls.api}/early-signup`, body)));
  }
  // It cannot read the mailboxes, so it guesses links.
  const guesses: TrickFigures = { attempts: 0, answered200: 0, refusedBy: new Map(), other: 0 };
  out.set('guessed confirmation tokens', guesses);
  const tokens = Array.from({ length: Math.round(50 * SCALE) + 30 }, () => randomBytes(32).toString('base64url'));
  await pool(tokens, BOT_CONCURRENCY, async (token) => count(guesses, await postJsonFrom('127.66.5.1', `${twin.urls.api}/confirm-waitlist`, { token })));
  return out;
}

interface PersonResult {
  signup: FromAnswer;
  confirm?: FromAnswer;
  emailWaitMs: number;
}

async function runPerson(twin: TestTwin): Promise<PersonResult> {
  // Once the bot is under way (its first tries answered), as a person arriving in the middle of it.
  await eventually(() => botAnswers > 0, { timeoutMs: 60_000, what: 'the bot under way' });
  const signup = await postJsonFrom(PERSON_NETWORK, `${twin.urls.api}/early-signup`, { email: PERSON, firstName: 'Real', terms: true });
  const started = performance.now();
  const link = await eventually(
    async () => {
      const mail = (await twin.emails()).find((m) => m.to.includes(PERSON) && /#confirm=/.test(m.text ?? ''));
      return mail?.text?.match(/#confirm=([A-Za-z0-9_-]{43})/)?.[1];
    },
    { timeoutMs: 30_000, what: "the person's confirmation email" },
  ).catch(() => undefined); // no email is a result the bench reports
  const emailWaitMs = performance.now() - started;
  if (!link) return { signup, emailWaitMs };
  const confirm = await postJsonFrom(PERSON_NETWORK, `${twin.urls.api}/confirm-waitlist`, { token: link });
  return { signup, confirm, emailWaitMs };
}

async function activeSignups(twin: TestTwin): Promise<Array<Record<string, unknown>>> {
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: twin.urls.dynamodb, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } }));
  const items: Array<Record<string, unknown>> = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(new ScanCommand({ TableName: twin.physicalName('WaitlistTable'), ExclusiveStartKey: start, ConsistentRead: true }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items.filter((i) => String(i.pk).startsWith('SIGNUP#'));
}

async function main() {
  const twin = await benchTwin();
  try {
    // Load both functions first: their first start in the twin is not what is measured.
    await postJsonFrom('127.99.0.1', `${twin.urls.api}/early-signup`, { email: 'warm.up@example.com', website: 'warm-up' });
    await postJsonFrom('127.99.0.1', `${twin.urls.api}/confirm-waitlist`, { token: 'W'.repeat(43) });
    const started = performance.now();
    const [bot, person] = await Promise.all([runBot(twin), runPerson(twin)]);
    const botSeconds = (performance.now() - started) / 1000;
    await twin.idle();

    const signups = await activeSignups(twin);
    const botSignups = signups.filter((s) => String(s.email).endsWith(`@${BOT_DOMAIN}`));
    const botPlaces = botSignups.filter((s) => s.status === 'active').length;
    const botPending = botSignups.filter((s) => s.status === 'pending').length;
    const botEmails = (await twin.emails()).filter((m) => m.to.some((t) => t.endsWith(`@${BOT_DOMAIN}`))).length;

    let attempts = 0;
    let answered = 0;
    console.log(`Waitlist bot on the twin (${QUICK ? 'quick' : 'full'} run, ${botSeconds.toFixed(1)} s):`);
    for (const [name, f] of bot) {
      attempts += f.attempts;
      answered += f.answered200;
      const refused = [...f.refusedBy].map(([reason, n]) => `${n} ${reason}`).join(', ') || 'none';
      console.log(`  ${name.padEnd(36)} ${String(f.attempts).padStart(4)} tries, ${String(f.answered200).padStart(4)} answered 200; refused: ${refused}${f.other ? `; ${f.other} failed (5xx: the twin's time-out)` : ''}`);
    }
    console.log(`  bot total: ${attempts} tries, ${answered} answered 200 (the same answer as a real signup)`);
    console.log(`  confirmation emails the bot made us send: ${botEmails}; unconfirmed signups kept (expire in 48 h): ${botPending}`);
    console.log(`  places taken by the bot: ${botPlaces} of 200`);

    const position = person.confirm?.json?.position;
    console.log(
      `Real person on another network: signup ${person.signup.status} in ${person.signup.ms.toFixed(0)} ms; email read after ${person.emailWaitMs.toFixed(0)} ms; ` +
        (person.confirm ? `confirmation ${person.confirm.status} in ${person.confirm.ms.toFixed(0)} ms; place #${position}` : 'no confirmation email'),
    );

    const failures: string[] = [];
    if (botPlaces > 0) failures.push(`the bot took ${botPlaces} places`);
    if (person.signup.status !== 200 || person.confirm?.status !== 200 || typeof position !== 'number') failures.push('the real person did not get a place');
    if (failures.length) throw new Error(failures.join('; '));
    console.log('Result: the bot took no place and the person was not stopped.');
  } finally {
    await twin.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
