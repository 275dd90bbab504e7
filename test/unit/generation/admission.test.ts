// Admission under Replicate's creation limit without AWS (decision 065): the bucket's rate, the
// queue's service order across clients, the wait's time limit, and many invocations serving the
// queue at once. The store is kept in memory with the conditions its DynamoDB writes check.
import { ADMISSION_TIMED_OUT_MESSAGE } from '../../../events/generation-values';
import { available, bucketShape, positionOf, serviceOrder, TOKEN, type CreationBucket, type QueueEntry } from '../../../functions/generation/admission';
import { awaitAdmission, serveAdmissionQueue, type AdmissionDeps } from '../../../functions/generation/steps/await-admission/service';

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const MINUTE = 60_000;

interface Gen {
  id: string;
  accountId: string;
  talentId: string;
  createdAt: string;
  queuedAt?: string;
  admittedAt?: string;
  admissionRefusedAt?: string;
  steps: Array<{ step: string; detail?: string }>;
}

/** The store's admission methods over memory, each write checking what DynamoDB's condition would. */
function memoryStore() {
  const gens = new Map<string, Gen>();
  const queue = new Map<string, QueueEntry>();
  let bucket: CreationBucket | undefined;
  /** Every admission, in order: which generation and when. */
  const admissions: Array<{ id: string; at: number }> = [];
  const key = (e: QueueEntry) => `${e.accountId}#${e.queuedAt}#${e.generationId}`;
  // Every call yields once, so invocations run side by side interleave as they would.
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  const store: AdmissionDeps['store'] = {
    async getForWorkflow(id) {
      await tick();
      const g = gens.get(id);
      return g ? ({ ...g, status: 'queued' } as never) : undefined;
    },
    async joinAdmissionQueue(generation, queuedAt, cost) {
      await tick();
      const g = gens.get(generation.id)!;
      if (g.admittedAt) return 'admitted';
      if (g.queuedAt || g.admissionRefusedAt) return 'moved';
      g.queuedAt = queuedAt;
      const entry = { accountId: generation.accountId, queuedAt, generationId: generation.id, cost };
      queue.set(key(entry), entry);
      return 'queued';
    },
    async admissionQueue() {
      await tick();
      return { ...(bucket ? { bucket: { ...bucket } } : {}), entries: [...queue.values()] };
    },
    async admit(entry, before, after, at) {
      await tick();
      if (before ? bucket?.millitokens !== before.millitokens || bucket?.at !== before.at : bucket !== undefined) return 'contended';
      if (!queue.has(key(entry))) return 'gone';
      const g = gens.get(entry.generationId)!;
      if (g.admittedAt || g.admissionRefusedAt) {
        queue.delete(key(entry));
        return 'gone';
      }
      bucket = { ...after };
      queue.delete(key(entry));
      g.admittedAt = at;
      admissions.push({ id: g.id, at: Date.parse(at) });
      return 'admitted';
    },
    async refuseAdmission(generation, queuedAt, at) {
      await tick();
      const g = gens.get(generation.id)!;
      if (g.admittedAt) return false;
      g.admissionRefusedAt = at;
      queue.delete(`${generation.accountId}#${queuedAt}#${generation.id}`);
      return true;
    },
    async recordStep(id, step) {
      gens.get(id)!.steps.push({ step: step.step, detail: step.detail });
      return true;
    },
  };
  return { store, gens, queue, admissions, add: (id: string, accountId: string, talentId: string, createdAt: string) => gens.set(id, { id, accountId, talentId, createdAt, steps: [] }) };
}

function harness(perMinute = 600, maxWaitMs = 10 * MINUTE) {
  const clock = { now: T0 };
  const memory = memoryStore();
  /** Talent `classified` excludes industries: its starts take two creations. */
  const deps: AdmissionDeps = { store: memory.store, now: () => new Date(clock.now), creationsPerMinute: perMinute, maxWaitMs, creationsOf: async (g) => (g.talentId === 'classified' ? 2 : 1) };
  let n = 0;
  /** A start of `accountId` reaching AwaitAdmission: its generation id. */
  const start = async (accountId: string, talentId?: string) => {
    const id = `gen-${String(++n).padStart(5, '0')}`;
    memory.add(id, accountId, talentId ?? 'maya-chen', new Date(clock.now).toISOString());
    await awaitAdmission(deps, id);
    return id;
  };
  const admittedIds = () => memory.admissions.map((a) => a.id);
  return { clock, memory, resumed: memory.admissions, deps, start, admittedIds };
}

describe('the creation bucket', () => {
  test('holds a second of creations (at least 2) and refills at the rest of the minute: 600 a minute is 10, then 590 a minute', () => {
    expect(bucketShape(600)).toEqual({ capacity: 10, millitokensPerMs: 590 / 60 });
    expect(bucketShape(60)).toEqual({ capacity: 2, millitokensPerMs: 58 / 60 });
    expect(available(undefined, T0, 600)).toBe(10 * TOKEN);
    expect(available({ millitokens: 0, at: T0 }, T0 + 600, 600)).toBe(5_900);
    expect(available({ millitokens: 0, at: T0 }, T0 + MINUTE, 600)).toBe(10 * TOKEN);
  });

  test('a stream of starts far beyond the limit is admitted at no more than the limit in any 60 s, and close to it', async () => {
    const h = harness(60);
    // 3 starts a second for two and a half minutes, from 20 clients; the queue is served at each arrival.
    for (let ms = 0; ms < 150_000; ms += 1000) {
      h.clock.now = T0 + ms;
      for (const k of [0, 7, 13]) await h.start(`client-${String((ms / 1000 + k) % 20).padStart(2, '0')}`);
    }
    const times = h.resumed.map((r) => r.at);
    let most = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i] - times[j] >= MINUTE) j++;
      most = Math.max(most, i - j + 1);
    }
    expect(most).toBeLessThanOrEqual(60);
    expect(most).toBeGreaterThanOrEqual(57);
    expect(h.memory.queue.size).toBe(450 - times.length);
  });
});

test("a start whose talent the industry classifier checks takes two creations: CheckPolicy's prediction counts too", async () => {
  const h = harness(600);
  for (let i = 0; i < 6; i++) await h.start(`client-${i}`, 'classified');
  // The bucket holds 10: five starts of two creations each.
  expect(h.admittedIds()).toHaveLength(5);
  expect([...h.memory.queue.values()]).toEqual([expect.objectContaining({ accountId: 'client-5', cost: 2 })]);
  h.clock.now += 110;
  await serveAdmissionQueue(h.deps);
  expect(h.admittedIds()).toHaveLength(5);
  h.clock.now += 110;
  await serveAdmissionQueue(h.deps);
  expect(h.admittedIds()).toHaveLength(6);
});

describe('the queue is served in turn across clients', () => {
  const entry = (accountId: string, second: number, generationId: string): QueueEntry => ({ accountId, queuedAt: new Date(T0 + second * 1000).toISOString(), generationId, cost: 1 });

  test('one start of each client a round, oldest first, beginning after the client served last', () => {
    const entries = [entry('a', 1, 'a1'), entry('a', 2, 'a2'), entry('a', 3, 'a3'), entry('b', 5, 'b1'), entry('c', 4, 'c1'), entry('c', 6, 'c2')];
    expect(serviceOrder(entries).map((e) => e.generationId)).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'a3']);
    expect(serviceOrder(entries, 'a').map((e) => e.generationId)).toEqual(['b1', 'c1', 'a1', 'c2', 'a2', 'a3']);
    expect(serviceOrder(entries, 'c').map((e) => e.generationId)).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'a3']);
    expect(positionOf(entries, 'a', 'c2')).toBe(4);
    expect(positionOf(entries, 'a', 'zz')).toBeUndefined();
  });

  test("one client's burst does not hold back the others: a client arriving behind 50 waiting starts is admitted within a round", async () => {
    const h = harness(60);
    // The bucket holds 2 creations at 60 a minute: the heavy client's first starts take them.
    for (let i = 0; i < 50; i++) await h.start('heavy');
    expect(h.resumed).toHaveLength(2);
    const light = await h.start('light');
    const other = await h.start('other');
    // Served in turn: heavy was served last, so light, then other, then heavy's next.
    h.clock.now += 1_100;
    await serveAdmissionQueue(h.deps);
    h.clock.now += 1_100;
    await serveAdmissionQueue(h.deps);
    h.clock.now += 1_100;
    await serveAdmissionQueue(h.deps);
    expect(h.admittedIds()).toEqual(['gen-00001', 'gen-00002', light, other, 'gen-00003']);
    // And a heavy client's own starts keep their order.
    expect(h.memory.gens.get('gen-00003')!.steps).toEqual([{ step: 'AwaitAdmission', detail: "admitted after 3 s in the queue for Replicate's creation limit" }]);
  });

  test('many invocations serving the queue at once never admit more than the bucket holds, and admit each start once', async () => {
    const h = harness(600);
    for (let i = 0; i < 40; i++) h.memory.add(`g${i}`, `client-${i % 8}`, 'maya-chen', new Date(T0).toISOString());
    await Promise.all(Array.from({ length: 40 }, (_, i) => h.memory.store.joinAdmissionQueue({ id: `g${i}`, accountId: `client-${i % 8}` }, new Date(T0).toISOString(), 1)));
    await Promise.all(Array.from({ length: 12 }, () => serveAdmissionQueue(h.deps)));
    expect(h.resumed).toHaveLength(10);
    expect(new Set(h.admittedIds()).size).toBe(10);
    // Two starts of each of client-0 and client-1, one of every other client: in turn.
    expect(h.admittedIds().map((id) => Number(id.slice(1)) % 8).sort()).toEqual([0, 0, 1, 1, 2, 3, 4, 5, 6, 7]);
    expect(h.memory.queue.size).toBe(30);
  });
});

describe('the wait', () => {
  test('a start looks again until it is admitted, keeping its place; the look that finds it admitted answers so', async () => {
    const h = harness(60);
    const first = [await h.start('a'), await h.start('a')];
    const second = await h.start('a');
    expect(h.admittedIds()).toEqual(first);
    const queuedAt = h.memory.gens.get(second)!.queuedAt;
    h.clock.now += 500;
    expect(await awaitAdmission(h.deps, second)).toEqual({ admitted: false });
    expect(h.memory.gens.get(second)!.queuedAt).toBe(queuedAt);
    expect(h.memory.queue.size).toBe(1);
    // The bucket refilled: this look admits it.
    h.clock.now += 1_000;
    expect(await awaitAdmission(h.deps, second)).toEqual({ admitted: true });
    // Admitted by another start's look: its own next look says so.
    const third = await h.start('b');
    h.clock.now += 1_100;
    await h.start('c');
    expect(h.admittedIds().at(-1)).toBe(third);
    expect(await awaitAdmission(h.deps, third)).toEqual({ admitted: true });
  });

  test('a start that waited longer than the limit leaves the queue and fails with AdmissionTimedOut, its message saying the credits were returned', async () => {
    const h = harness(60, 10 * MINUTE);
    await h.start('a');
    await h.start('a');
    const waiting = await h.start('b');
    // Nothing refills in this test: the bucket is taken again by a start of another client each time.
    h.clock.now += 10 * MINUTE + 1;
    h.memory.store.admit = async () => 'contended';
    await expect(awaitAdmission(h.deps, waiting)).rejects.toMatchObject({ name: 'AdmissionTimedOut', message: ADMISSION_TIMED_OUT_MESSAGE });
    expect(h.memory.gens.get(waiting)!.admissionRefusedAt).toBe(new Date(h.clock.now).toISOString());
    expect([...h.memory.queue.values()].map((e) => e.generationId)).not.toContain(waiting);
    // Its retry (or a late renewal) is refused the same way, and never joins the queue again.
    await expect(awaitAdmission(h.deps, waiting)).rejects.toMatchObject({ name: 'AdmissionTimedOut' });
    expect(h.memory.queue.size).toBe(0);
  });

  test('a start admitted just as it reached the limit goes on: admitted wins over the time-out', async () => {
    const h = harness(60, 10 * MINUTE);
    const id = await h.start('a');
    h.clock.now += 10 * MINUTE + 1;
    expect(await awaitAdmission(h.deps, id)).toEqual({ admitted: true });
    expect(h.memory.gens.get(id)!.admissionRefusedAt).toBeUndefined();
  });
});
