import { useEffect } from 'react';
import { pageTitle } from '../brand';

/** Sets document.title to "<title> — Humanly" (or the brand and tagline when no title). */
export function usePageTitle(title?: string): void {
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
}
