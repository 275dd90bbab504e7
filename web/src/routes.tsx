import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { FoundingLayout } from './components/FoundingLayout';
import { MainLayout } from './components/MainLayout';
import { PreLaunchLayout } from './components/PreLaunchLayout';
import { useConfig } from './config';
import { NotFoundPage } from './pages/NotFoundPage';
import { FoundingTalentApplicationPage } from './pages/PlaceholderPages';
import { PreLaunchLandingPage } from './pages/PreLaunchLandingPage';
import { ThankYouPage } from './pages/thank-you/ThankYouPage';
import { WaitlistPage } from './pages/waitlist/WaitlistPage';
import { foundingPages } from './routes/founding-pages';
import { infoPages, prelaunchInfoPages } from './routes/info-pages';
import { HomePage, mainPages } from './routes/main-pages';
import { talentPages } from './routes/talent-pages';

/**
 * Renders `prelaunch` while the site is in pre-launch mode (config.prelaunch, true unless set
 * to false), else `launched`. The launch is a settings change, not a rebuild (DESIGN.md).
 */
function ByLaunchState({ prelaunch, launched }: { prelaunch: ReactNode; launched: ReactNode }) {
  return useConfig().prelaunch !== false ? prelaunch : launched;
}

/**
 * Route table (spec section 2). Each area's pages live in `routes/*`; this file places them
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
    children: [...mainPages, ...infoPages, ...talentPages, { path: '*', element: <NotFoundPage /> }],
  },
];
