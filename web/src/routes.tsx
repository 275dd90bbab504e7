import { lazy, type ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { FoundingLayout } from './components/FoundingLayout';
import { PreLaunchLayout } from './components/PreLaunchLayout';
import { useConfig } from './config';
import { accountPages } from './routes/account-pages';
import { foundingPages } from './routes/founding-pages';
import { infoPages, prelaunchInfoPages } from './routes/info-pages';
import { HomePage, mainPages } from './routes/main-pages';
import { talentPages } from './routes/talent-pages';

/* Own chunks: a page loads only its own code (the prerendered HTML preloads it). */
const PreLaunchLandingPage = lazy(() => import('./pages/PreLaunchLandingPage').then((m) => ({ default: m.PreLaunchLandingPage })));
const WaitlistPage = lazy(() => import('./pages/waitlist/WaitlistPage').then((m) => ({ default: m.WaitlistPage })));
const ThankYouPage = lazy(() => import('./pages/thank-you/ThankYouPage').then((m) => ({ default: m.ThankYouPage })));
/* The main site's layout: the pre-launch and founding pages never load it (decision 063). */
const MainLayout = lazy(() => import('./components/MainLayout').then((m) => ({ default: m.MainLayout })));
/* Not prerendered (unknown paths get the app shell): its code need not ride in every page's. */
const NotFoundPage = lazy(() => import('./pages/NotFoundPage').then((m) => ({ default: m.NotFoundPage })));
const FoundingTalentApplicationPage = lazy(() =>
  import('./pages/founding/FoundingApplicationPage').then((m) => ({ default: m.FoundingTalentApplicationPage })),
);

/**
 * Renders `prelaunch` while the site is in pre-launch mode (config.prelaunch, true unless set
 * to false), else `launched`. The launch is a settings change, not a rebuild (docs/product.md#reading-home).
 */
function ByLaunchState({ prelaunch, launched }: { prelaunch: ReactNode; launched: ReactNode }) {
  return useConfig().prelaunch !== false ? prelaunch : launched;
}

/**
 * Route table (docs/product.md#routes). Each area's pages live in `routes/*`; this file places them
 * under their layout: pre-launch, founding talent, or the main site. `/` shows the pre-launch
 * landing in the pre-launch layout until launch, then the main home in the main layout;
 * `/home-preview` always shows the main home.
 */
export const routes: RouteObject[] = [
  {
    element: <ByLaunchState prelaunch={<PreLaunchLayout />} launched={<MainLayout />} />,
    children: [{ index: true, element: <ByLaunchState prelaunch={<PreLaunchLandingPage />} launched={<HomePage />} /> }],
  },
  {
    element: <PreLaunchLayout />,
    children: [
      { path: 'first-200', element: <WaitlistPage /> },
      { path: 'thank-you', element: <ThankYouPage /> },
      ...prelaunchInfoPages,
    ],
  },
  {
    element: <FoundingLayout />,
    children: [
      { path: 'founding-talent-application', element: <FoundingTalentApplicationPage /> },
      ...foundingPages,
    ],
  },
  {
    element: <MainLayout />,
    children: [...mainPages, accountPages, ...infoPages, ...talentPages, { path: '*', element: <NotFoundPage /> }],
  },
];
