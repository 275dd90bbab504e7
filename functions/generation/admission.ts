// Admission of prediction creations under Replicate's limit (docs/generation.md#admission,
// decision 065): the arithmetic of the creation bucket and the order the admission queue is
// served in, kept free of I/O so they can be tested alone. The store holds the bucket and the
// queue (store.ts); the AwaitAdmission step serves the queue (steps/await-admission).

/** Millitokens: the bucket counts in thousandths of a creation, so it stays in integers. */
export const TOKEN = 1000;

/** The creation bucket as stored: its millitokens at `at` (ms), and the client served last. */
export interface CreationBucket {
  millitokens: number;
  at: number;
  lastClient?: string;
}

/**
 * The bucket's shape for a limit of `perMinute` creations a minute: it holds at most a second's
 * worth (at least two, so a creation's remainder is not lost between two reads a second apart) and refills at the rest of the minute's rate, so any 60 s holds at most
 * `capacity + refill × 60 s` = `perMinute` admissions, however they fall.
 */
export function bucketShape(perMinute: number): { capacity: number; millitokensPerMs: number } {
  const limit = Math.max(3, Math.floor(perMinute));
  const capacity = Math.max(2, Math.floor(limit / 60));
  // (limit - capacity) tokens a minute = (limit - capacity) * 1000 millitokens per 60,000 ms.
  return { capacity, millitokensPerMs: (limit - capacity) / 60 };
}

/** The millitokens the bucket holds at `now` (a missing bucket is full). */
export function available(bucket: CreationBucket | undefined, now: number, perMinute: number): number {
  const { capacity, millitokensPerMs } = bucketShape(perMinute);
  if (!bucket) return capacity * TOKEN;
  const elapsed = Math.max(0, now - bucket.at);
  return Math.min(capacity * TOKEN, bucket.millitokens + Math.floor(elapsed * millitokensPerMs));
}

/** A waiting start as the queue holds it. */
export interface QueueEntry {
  accountId: string;
  /** When it joined the queue (ISO): a client's own starts are served oldest first. */
  queuedAt: string;
  generationId: string;
  /** Creations it will make: 1, or 2 when CheckPolicy asks the industry classifier too. */
  cost: number;
}

/**
 * The order the queue is served in: in turn across clients, one start of each client a round,
 * each client's oldest first, the round beginning with the client after `lastClient` (in account
 * order, wrapping around). So a client with many waiting starts takes one turn in each round like
 * any other, and cannot hold back a client that has one.
 */
export function serviceOrder(entries: readonly QueueEntry[], lastClient?: string): QueueEntry[] {
  const byClient = new Map<string, QueueEntry[]>();
  for (const entry of [...entries].sort((a, b) => (a.accountId === b.accountId ? compare(a.queuedAt + a.generationId, b.queuedAt + b.generationId) : compare(a.accountId, b.accountId)))) {
    const own = byClient.get(entry.accountId) ?? [];
    own.push(entry);
    byClient.set(entry.accountId, own);
  }
  const clients = [...byClient.keys()];
  const first = lastClient === undefined ? 0 : clients.findIndex((c) => c > lastClient);
  const turn = first < 0 ? clients : [...clients.slice(first), ...clients.slice(0, first)];
  const order: QueueEntry[] = [];
  for (let round = 0; order.length < entries.length; round++) {
    for (const client of turn) {
      const entry = byClient.get(client)![round];
      if (entry) order.push(entry);
    }
  }
  return order;
}

/** A start's place in the queue (1 = served next), or undefined when it is not in it. */
export function positionOf(entries: readonly QueueEntry[], lastClient: string | undefined, generationId: string): number | undefined {
  const i = serviceOrder(entries, lastClient).findIndex((e) => e.generationId === generationId);
  return i < 0 ? undefined : i + 1;
}

/** Whether a start that joined the queue at `queuedAt` has waited longer than `maxWaitMs` at `now`. */
export function waitedTooLong(queuedAt: string, now: Date, maxWaitMs: number): boolean {
  return now.getTime() - Date.parse(queuedAt) > maxWaitMs;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
