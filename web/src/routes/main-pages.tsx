import { lazy } from 'react';
import type { RouteObject } from 'react-router';

/*
 * Each main-site page is its own chunk (React.lazy in `element`, see ../app.tsx), so the pre-launch
 * pages visitors land on first do not carry the home's carousel and demo widget. The build
 * prerenders these pages, so their HTML is on screen before the chunk arrives.
 */
export const HomePage = lazy(() => import('../pages/home/HomePage').then((m) => ({ default: m.HomePage })));
const EthosPage = lazy(() => import('../pages/ethos/EthosPage').then((m) => ({ default: m.EthosPage })));
const PricingPage = lazy(() => import('../pages/pricing/PricingPage').then((m) => ({ default: m.PricingPage })));

/** Main-site marketing pages (main layout). `/` itself is placed by ../routes.tsx; account pages (and /create) by ./account-pages.tsx. */
export const mainPages: RouteObject[] = [
  { path: 'home-preview', element: <HomePage /> },
  { path: 'ethos', element: <EthosPage /> },
  { path: 'pricing', element: <PricingPage /> },
];
