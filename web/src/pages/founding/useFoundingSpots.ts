import { useEffect, useState } from 'react';
import type { FoundingSpots } from '../../api/founding';

export type { FoundingSpots };

/** `GET /founding-spots`: null while loading or when the call fails, so nothing misleading shows. */
export function useFoundingSpots(apiUrl: string): FoundingSpots | null {
  const [spots, setSpots] = useState<FoundingSpots | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    // The call and the API client load with it (the form's submission loads the client anyway), so
    // the page starts without them: the count shows a moment after the page, as it always has.
    import('../../api/founding')
      .then(({ fetchFoundingSpots }) => fetchFoundingSpots(apiUrl, controller.signal))
      .then((body) => body && setSpots(body))
      .catch(() => undefined);
    return () => controller.abort();
  }, [apiUrl]);
  return spots;
}

export function spotsText({ total, left }: FoundingSpots): string {
  if (left === 0) return `All ${total} founding spots are taken`;
  return `${left} of ${total} founding spots left`;
}
