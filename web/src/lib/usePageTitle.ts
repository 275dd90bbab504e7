import { createContext, useContext, useEffect } from 'react';
import { pageTitle } from '../brand';

/**
 * What the page being prerendered says about itself. The build renders each route with a fresh
 * collector and writes what it gathered into the page's <head>, so the prerendered title is the
 * one the page sets in the browser.
 */
export interface HeadCollector {
  title?: string;
  description?: string;
}

/** Provided only by the prerenderer (entry-server.tsx), which keeps what it is told; null in the browser. */
export const HeadContext = createContext<((meta: HeadCollector) => void) | null>(null);

/**
 * Sets the document title and, optionally, the meta description of the current page.
 * During prerendering it records them (render is the only phase that runs on the server).
 */
function usePageMeta({ title, description }: { title?: string; description?: string }): void {
  useContext(HeadContext)?.(description ? { title: pageTitle(title), description } : { title: pageTitle(title) });
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
  useEffect(() => {
    if (description) document.querySelector('meta[name="description"]')?.setAttribute('content', description);
  }, [description]);
}

/** Sets document.title to "<title> — Humanly" (or the brand and tagline when no title). */
export function usePageTitle(title?: string): void {
  usePageMeta({ title });
}
