// The idempotency utility over records in memory (inMemoryIdempotency), telling which keys of one
// operation completed: a test of a webhook sees which events were applied, by the same records the
// function keeps.
import { inMemoryIdempotency, type Once } from '../../functions/shared/idempotency';

export function recordingOnce(name: string, key: (input: object) => string): { once: Once; completed: Set<string> } {
  const memory = inMemoryIdempotency();
  const completed = new Set<string>();
  const once: Once = (options, input, fn) =>
    memory(options, input, async (i) => {
      const answer = await fn(i);
      if (options.name === name) completed.add(key(i));
      return answer;
    });
  return { once, completed };
}
