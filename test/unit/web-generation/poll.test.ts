import type { Generation } from '../../../events/generations';
import { GENERATION_TIMED_OUT, POLL_INTERVAL_MS, POLL_MAX_ATTEMPTS } from '../../../events/generation-values';
import { ApiError } from '../../../web/src/api/client';
import { GenerationTimedOutError, PollAbortedError, pollGeneration } from '../../../web/src/generation/poll';

const at = '2026-11-25T10:00:00.000Z';
const generation = (status: Generation['status']): Generation => ({
  id: 'g1', talentId: 'maya-chen', talentName: 'Maya Chen', prompt: 'a portrait', style: 'Photorealistic', count: 4, status,
  createdAt: at, updatedAt: at, creditsSpent: status === 'succeeded' ? 4 : 0, images: [],
});

/** A scripted server and a clock that records the waits instead of sleeping. */
function script(answers: Array<Generation['status'] | Error>) {
  const waits: number[] = [];
  let reads = 0;
  const get = async () => {
    const next = answers[Math.min(reads++, answers.length - 1)];
    if (next instanceof Error) throw next;
    return generation(next);
  };
  const sleep = async (ms: number) => {
    waits.push(ms);
  };
  return { get, sleep, waits, reads: () => reads };
}

describe('polling a generation', () => {
  it('reads at once, then every 5000 ms, and answers the final status with every update on the way', async () => {
    const s = script(['queued', 'starting', 'processing', 'succeeded']);
    const seen: string[] = [];
    const final = await pollGeneration({ get: s.get, id: 'g1', sleep: s.sleep, onUpdate: (g) => seen.push(g.status) });
    expect(final.status).toBe('succeeded');
    expect(seen).toEqual(['queued', 'starting', 'processing', 'succeeded']);
    expect(s.waits).toEqual([POLL_INTERVAL_MS, POLL_INTERVAL_MS, POLL_INTERVAL_MS]);
    expect(POLL_INTERVAL_MS).toBe(5000);
  });

  it('reads while the start waits in the admission queue do not count toward the limit, and each shows its place (decision 065)', async () => {
    let reads = 0;
    const positions: number[] = [];
    const get = async (): Promise<Generation> => {
      reads++;
      if (reads <= POLL_MAX_ATTEMPTS + 10) return { ...generation('queued'), queue: { position: POLL_MAX_ATTEMPTS + 11 - reads, since: at } };
      return generation(reads < POLL_MAX_ATTEMPTS + 13 ? 'processing' : 'succeeded');
    };
    const final = await pollGeneration({ get, id: 'g1', sleep: async () => undefined, onUpdate: (g) => g.queue && positions.push(g.queue.position) });
    expect(final.status).toBe('succeeded');
    expect(positions).toHaveLength(POLL_MAX_ATTEMPTS + 10);
    expect(positions.at(-1)).toBe(1);
  });

  it.each(['failed', 'canceled'] as const)('stops at %s', async (status) => {
    const s = script(['queued', status, 'succeeded']);
    expect((await pollGeneration({ get: s.get, id: 'g1', sleep: s.sleep })).status).toBe(status);
    expect(s.reads()).toBe(2);
  });

  it('gives up after 60 reads with "Generation timed out"', async () => {
    const s = script(['processing']);
    const err = await pollGeneration({ get: s.get, id: 'g1', sleep: s.sleep }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GenerationTimedOutError);
    expect((err as Error).message).toBe(GENERATION_TIMED_OUT);
    expect(s.reads()).toBe(POLL_MAX_ATTEMPTS);
    expect(POLL_MAX_ATTEMPTS).toBe(60);
  });

  it('asks again after a network failure or a 5xx, but stops at once on a 4xx', async () => {
    const flaky = script([new ApiError('offline', 0), new ApiError('busy', 503), 'succeeded']);
    expect((await pollGeneration({ get: flaky.get, id: 'g1', sleep: flaky.sleep })).status).toBe('succeeded');
    expect(flaky.reads()).toBe(3);

    const gone = script([new ApiError('Generation not found', 404), 'succeeded']);
    await expect(pollGeneration({ get: gone.get, id: 'g1', sleep: gone.sleep })).rejects.toThrow('Generation not found');
    expect(gone.reads()).toBe(1);

    const down = script([new ApiError('offline', 0)]);
    await expect(pollGeneration({ get: down.get, id: 'g1', sleep: down.sleep, maxAttempts: 3 })).rejects.toThrow('offline');
  });

  it('stops when the page is left, with the real timer', async () => {
    const s = script(['processing']);
    const controller = new AbortController();
    const run = pollGeneration({ get: s.get, id: 'g1', intervalMs: 10_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(run).rejects.toBeInstanceOf(PollAbortedError);
    expect(s.reads()).toBe(1);
  });
});
