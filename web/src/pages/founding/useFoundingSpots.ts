import { useEffect, useState } from 'react';
import { apiClient } from '../../api/client';

export interface FoundingSpots {
  total: number;
  taken: number;
  left: number;
}

/** `GET /founding-spots`: null while loading or when the call fails, so nothing misleading shows. */
export function useFoundingSpots(apiUrl: string): FoundingSpots | null {
  const [spots, setSpots] = useState<FoundingSpots | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    apiClient({ apiUrl })
      .call('GET', '/founding-spots', { signal: controller.signal })
      .then(({ json }) => {
        const body = json as FoundingSpots | null;
        // Only a whole answer is shown: a missing or odd number would mislead.
        if (body && [body.total, body.taken, body.left].every((n) => Number.isInteger(n) && n >= 0)) setSpots(body);
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, [apiUrl]);
  return spots;
}

export function spotsText({ total, left }: FoundingSpots): string {
  if (left === 0) return `All ${total} founding spots are taken`;
  return `${left} of ${total} founding spots left`;
}
