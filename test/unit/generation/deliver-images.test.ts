// DeliverImages without AWS (decision 036): each image's license, usage, accrual and the credit it
// consumes are one transaction; the accrual is worth the exact credit consumed (promotional at the
// cheapest paid credit, nothing for a testing grant or the talent's own account); a failure after
// some images leaves exactly those licensed and paid for; a retry pays for nothing twice.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PREDICTION_FAILED_MESSAGE } from '../../../events/generation-values';
import { PROMOTIONAL_CREDIT_VALUE_MICROS, PROMOTIONAL_LOT, TESTING_LOT, planLot, type CreditLot } from '../../../events/plans';
import { takeOldest, type CreditLedger, type LinkedWrite, type LotCredits } from '../../../functions/accounts/credits';
import { generationStore, type GenerationStore } from '../../../functions/generation/store';
import { deliverImages, imageCommitKey, licenseIdOf, type DeliverImagesDeps } from '../../../functions/generation/steps/deliver-images/service';
import { accrualOf, isOwnAccount, mailboxOf } from '../../../functions/generation/steps/deliver-images/accrual';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const ID = '0d6c3f4e-8a1b-4c2d-9e0f-1a2b3c4d5e6f';
const STARTER = planLot('starter');

/**
 * A generation of `outputs.length` images whose reservation holds `lots`, with fakes that keep what
 * a transaction would: each commitOne applies its linked writes and the commit together, or neither.
 */
function fakes(outputs: Array<Buffer | Error>, options: { lots?: LotCredits[]; status?: string; clientEmail?: string; talentEmail?: string; failPutAt?: number } = {}) {
  const record = {
    id: ID, accountId: 'acc-1', clientEmail: options.clientEmail ?? 'ada@clients.example', planId: 'pro', talentId: 'maya-chen', talentName: 'Maya Chen', licensee: 'Ada', style: 'Portrait',
    count: outputs.length, status: options.status ?? 'processing', images: [] as unknown[],
    prediction: { id: 'p1', status: 'succeeded', output: outputs.map((_, i) => `https://replicate.example/${i}.png`), error: null },
  };
  const calls: string[] = [];
  /** What the transactions wrote, by item key. */
  const items = new Map<string, Record<string, unknown>>();
  const keys = new Set<string>();
  let open: LotCredits[] = options.lots ?? [{ credits: outputs.length, ...STARTER }];
  let committed = 0;
  let released = 0;
  const reserved = open.reduce((n, l) => n + l.credits, 0);
  let puts = 0;
  const real = generationStore(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'Generations');
  const store = {
    getForWorkflow: async () => record,
    hasLicense: async (id: string) => items.has(`LIC#${id}|LIC`),
    licenseWrites: real.licenseWrites,
    finishDelivered: async (_id: string, r: { images: unknown[]; creditsSpent: number }, talent: { counted?: number }) =>
      void calls.push(`finish ${r.images.length} spent ${r.creditsSpent} counted ${talent.counted}`),
  } as unknown as GenerationStore;
  const apply = (writes: LinkedWrite[]) => {
    for (const w of writes) {
      const item = (w.Put?.Item ?? { ...w.Update?.Key, update: w.Update?.UpdateExpression }) as Record<string, unknown>;
      const key = `${String(item.pk)}|${String(item.sk)}`;
      items.set(key, { ...items.get(key), ...item });
    }
  };
  const ledger = {
    reservation: async () => ({ reserved, committed, released, open: open.reduce((n, l) => n + l.credits, 0) }),
    used: async (_a: string, key: string) => keys.has(key),
    commitOne: async (_a: string, c: { key: string }, linked: (credit: CreditLot) => LinkedWrite[]) => {
      if (keys.has(c.key)) return { replayed: true };
      const { taken, rest } = takeOldest(open, 1);
      const writes = linked(taken[0]);
      // One transaction: the writes and the commit together.
      apply(writes);
      keys.add(c.key);
      open = rest;
      committed += 1;
      calls.push(`transaction ${c.key}: ${writes.length} writes + commit`);
      return { replayed: false, credit: taken[0] };
    },
    commit: async (_a: string, c: { key: string; credits: number }) => {
      if (keys.has(c.key)) return { replayed: true };
      throw new Error(`an unexpected commit ${c.key}`);
    },
    release: async (_a: string, c: { credits: number; key: string }) => {
      calls.push(`release ${c.credits} ${c.key}`);
      open = takeOldest(open, c.credits).rest;
      released += c.credits;
    },
  } as unknown as CreditLedger;
  const fetched: number[] = [];
  const deps: DeliverImagesDeps = {
    store,
    ledger,
    replicate: async () =>
      ({
        fetchOutput: async (url: string) => {
          const i = Number(url.match(/(\d)\.png$/)![1]);
          fetched.push(i);
          const o = outputs[i];
          if (o instanceof Error) throw o;
          return o;
        },
      }) as never,
    encode: async (image) => image,
    sign: async (png) => png,
    putImage: async (key) => {
      if (options.failPutAt !== undefined && puts++ >= options.failPutAt) throw Object.assign(new Error('S3 is down'), { name: 'InternalError' });
      calls.push(`put ${key}`);
    },
    siteUrl: 'https://humanly.example',
    talentTable: 'Talent',
    talentOf: async () => ({ royaltyPlan: 'founding-35', email: options.talentEmail ?? 'maya@talent.example' }),
    now: () => NOW,
  };
  const accrual = (index: number) => [...items.values()].find((i) => String(i.sk).startsWith('ACCRUAL#') && i.licenseId === licenseIdOf(ID, index));
  const license = (index: number) => items.get(`LIC#${licenseIdOf(ID, index)}|LIC`);
  return { deps, calls, items, accrual, license, fetched, state: () => ({ committed, released, open }) };
}

describe('delivery, one transaction per image', () => {
  it('writes each image\'s license, usage, accrual and generation image in the transaction that commits its credit', async () => {
    const { deps, calls, accrual, license, state } = fakes([Buffer.from('a'), Buffer.from('b')]);
    expect(await deliverImages(deps, ID)).toEqual({ delivered: 2 });
    expect(calls).toEqual([
      `put generations/acc-1/${ID}/${licenseIdOf(ID, 0)}.png`,
      `transaction ${imageCommitKey(ID, 0)}: 4 writes + commit`,
      `put generations/acc-1/${ID}/${licenseIdOf(ID, 1)}.png`,
      `transaction ${imageCommitKey(ID, 1)}: 4 writes + commit`,
      'finish 2 spent 2 counted 2',
    ]);
    expect(imageCommitKey(ID, 1)).toBe(`gen:${ID}:commit:1`);
    expect(license(0)).toMatchObject({ id: licenseIdOf(ID, 0), creditValueMicros: STARTER.valueMicros });
    // A paid credit: the accrual is worth it, with the talent's plan at issue, and no flags.
    expect(accrual(0)).toMatchObject({ creditValueMicros: STARTER.valueMicros, royaltyPlan: 'founding-35', planId: 'pro' });
    expect(accrual(0)).not.toHaveProperty('promotional');
    expect(accrual(0)).not.toHaveProperty('noRoyalty');
    expect(state()).toMatchObject({ committed: 2, released: 0 });
  });

  it('each accrual records the exact credit its image consumed, oldest first: promotional, testing, paid', async () => {
    const lots = [
      { credits: 1, ...PROMOTIONAL_LOT },
      { credits: 1, ...TESTING_LOT },
      { credits: 1, ...STARTER },
    ];
    const { deps, accrual, license } = fakes([Buffer.from('a'), Buffer.from('b'), Buffer.from('c')], { lots });
    await deliverImages(deps, ID);
    expect(accrual(0)).toMatchObject({ creditValueMicros: PROMOTIONAL_CREDIT_VALUE_MICROS, promotional: true });
    expect(accrual(1)).toMatchObject({ creditValueMicros: 0, noRoyalty: 'testing-grant' });
    expect(accrual(1)).not.toHaveProperty('promotional');
    expect(accrual(2)).toMatchObject({ creditValueMicros: 437_500 });
    expect([license(0)?.creditValueMicros, license(1)?.creditValueMicros, license(2)?.creditValueMicros]).toEqual([PROMOTIONAL_CREDIT_VALUE_MICROS, 0, 437_500]);
  });

  it("a talent's own account earns nothing and does not raise their count; the images are still licensed and paid for", async () => {
    const { deps, calls, accrual, license, state } = fakes([Buffer.from('a'), Buffer.from('b')], { clientEmail: 'Maya+Shop@Talent.example', talentEmail: 'maya@talent.example' });
    await deliverImages(deps, ID);
    for (const i of [0, 1]) {
      expect(accrual(i)).toMatchObject({ creditValueMicros: 0, noRoyalty: 'own-account' });
      expect(license(i)).toMatchObject({ creditValueMicros: STARTER.valueMicros });
    }
    expect(state()).toMatchObject({ committed: 2 });
    expect(calls.at(-1)).toBe('finish 2 spent 2 counted 0');
  });

  it('failing after 2 of 4 images leaves exactly those 2 licensed, accrued and committed; a retry writes and pays nothing twice', async () => {
    const outputs = [Buffer.from('a'), Buffer.from('b'), Buffer.from('c'), Buffer.from('d')];
    const f = fakes(outputs, { failPutAt: 2 });
    await expect(deliverImages(f.deps, ID)).rejects.toThrow('S3 is down');
    expect([f.license(0), f.license(1)]).toEqual([expect.anything(), expect.anything()]);
    expect([f.license(2), f.license(3), f.accrual(2), f.accrual(3)]).toEqual([undefined, undefined, undefined, undefined]);
    expect([f.accrual(0), f.accrual(1)]).toEqual([expect.anything(), expect.anything()]);
    // Nothing released here: RecordFailure releases what is still open (the 2 undelivered).
    expect(f.state()).toMatchObject({ committed: 2, released: 0 });
    expect(f.state().open.reduce((n, l) => n + l.credits, 0)).toBe(2);

    // A retry skips the delivered images (not even downloaded again) and fails at the same place.
    f.fetched.length = 0;
    await expect(deliverImages(f.deps, ID)).rejects.toThrow('S3 is down');
    expect(f.fetched).toEqual([2, 3]);
    expect(f.state()).toMatchObject({ committed: 2, released: 0 });
  });

  it('an output that cannot be downloaded is left out: its credit released, the rest licensed and paid for', async () => {
    const { deps, calls, state } = fakes([Buffer.from('a'), new Error('404'), Buffer.from('c')]);
    expect(await deliverImages(deps, ID)).toEqual({ delivered: 2 });
    expect(calls.filter((c) => c.startsWith('put'))).toEqual([`put generations/acc-1/${ID}/${licenseIdOf(ID, 0)}.png`, `put generations/acc-1/${ID}/${licenseIdOf(ID, 2)}.png`]);
    expect(calls.slice(-2)).toEqual([`release 1 gen:${ID}:release`, 'finish 2 spent 2 counted 2']);
    expect(state()).toMatchObject({ committed: 2, released: 1 });
  });

  it('makes the files side by side, then stores and commits them in the images\' order, whichever file is ready first', async () => {
    const outputs: Buffer[] = [Buffer.from('a'), Buffer.from('b'), Buffer.from('c')];
    const { deps, calls } = fakes(outputs);
    const started: number[] = [];
    const release: Array<() => void> = [];
    // The downloads answer last to first: each waits until all three have started.
    deps.encode = async (image) => {
      started.push(outputs.findIndex((o) => o.equals(image)));
      const ready = new Promise<void>((resolve) => release.push(resolve));
      if (release.length === outputs.length) [...release].reverse().forEach((r) => r());
      await ready;
      return image;
    };
    expect(await deliverImages(deps, ID)).toEqual({ delivered: 3 });
    expect(started).toEqual([0, 1, 2]);
    const label = (c: string) => {
      const i = [0, 1, 2].find((n) => c === `put generations/acc-1/${ID}/${licenseIdOf(ID, n)}.png` || c.startsWith(`transaction ${imageCommitKey(ID, n)}:`));
      return `${c.split(' ')[0]} ${i}`;
    };
    const order = calls.filter((c) => c.startsWith('put') || c.startsWith('transaction')).map(label);
    // Each image stored before its transaction, image i's transaction never before image i - 1's.
    expect(order.filter((c) => c.startsWith('put'))).toEqual(['put 0', 'put 1', 'put 2']);
    expect(order.filter((c) => c.startsWith('transaction'))).toEqual(['transaction 0', 'transaction 1', 'transaction 2']);
    for (const i of [0, 1, 2]) expect(order.indexOf(`put ${i}`)).toBeLessThan(order.indexOf(`transaction ${i}`));
  });

  it('nothing deliverable is a failed prediction; a delivered generation is not delivered again', async () => {
    const none = fakes([new Error('404')]);
    await expect(deliverImages(none.deps, ID)).rejects.toMatchObject({ name: 'PredictionFailed', message: PREDICTION_FAILED_MESSAGE });
    expect(none.calls).toEqual([]);
    const done = fakes([Buffer.from('a')], { status: 'succeeded' });
    expect(await deliverImages(done.deps, ID)).toEqual({ delivered: 0 });
    expect(done.calls).toEqual([]);
  });
});

describe('what an image earns', () => {
  it('promotional credits at the cheapest paid credit at most; testing grants and the own account nothing', () => {
    expect(accrualOf({ valueMicros: 437_500, kind: 'paid' }, false)).toEqual({ creditValueMicros: 437_500 });
    expect(accrualOf(PROMOTIONAL_LOT, false)).toEqual({ creditValueMicros: PROMOTIONAL_CREDIT_VALUE_MICROS, promotional: true });
    expect(accrualOf({ valueMicros: 400_000, kind: 'promotional' }, false)).toEqual({ creditValueMicros: PROMOTIONAL_CREDIT_VALUE_MICROS, promotional: true });
    expect(accrualOf(TESTING_LOT, false)).toEqual({ creditValueMicros: 0, noRoyalty: 'testing-grant' });
    expect(accrualOf({ valueMicros: 437_500, kind: 'paid' }, true)).toEqual({ creditValueMicros: 0, noRoyalty: 'own-account' });
  });

  it('tells the own account by mailbox: case, spaces and a +tag do not matter; unknown addresses never match', () => {
    expect(mailboxOf(' Maya+Shop@Talent.Example ')).toBe('maya@talent.example');
    expect(isOwnAccount('MAYA@talent.example', 'maya@talent.example')).toBe(true);
    expect(isOwnAccount('maya+1@talent.example', 'maya+2@talent.example')).toBe(true);
    expect(isOwnAccount('maya@talent.example', 'maya@other.example')).toBe(false);
    expect(isOwnAccount('mayan@talent.example', 'maya@talent.example')).toBe(false);
    expect(isOwnAccount('maya@talent.example', undefined)).toBe(false);
    expect(isOwnAccount('', '')).toBe(false);
  });
});
