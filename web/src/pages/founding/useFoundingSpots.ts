import { useEffect, useState } from 'react';

export interface FoundingSpots {
  total: number;
  taken: number;
  left: number;
}

function isSpots(v: unknown): v is FoundingSpots {
  if (!v || typeof v !== 'object') return false;
  const s = v as Record<string, unknown>;
  return [s.total, s.taken, s.left].every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 0);
}

/** `GET /founding-spots`: null while loading or when the call fails, so nothing misleading shows. */
export function useFoundingSpots(apiUrl: string): FoundingSpots | null {
  const [spots, setSpots] = useState<FoundingSpots | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetch(`${apiUrl}/founding-spots`, { signal: controller.signal, headers: { accept: 'application/json' } })
      .then((res) => (res.ok ? res.json() : null))
      .then((body: unknown) => {
        if (isSpots(body)) setSpots(body);
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
