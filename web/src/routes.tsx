import { createBrowserRouter, type RouteObject } from 'react-router';
import { PreLaunchLayout } from './components/PreLaunchLayout';
import { NotFoundPage } from './pages/NotFoundPage';
import { FoundingTalentApplicationPage } from './pages/PlaceholderPages';
import { PreLaunchLandingPage } from './pages/PreLaunchLandingPage';
import { ThankYouPage } from './pages/thank-you/ThankYouPage';
import { WaitlistPage } from './pages/waitlist/WaitlistPage';
import { foundingPages } from './routes/founding-pages';
import { infoPages, prelaunchInfoPages } from './routes/info-pages';
import { mainPages } from './routes/main-pages';
import { talentPages } from './routes/talent-pages';

/**
 * Route table (spec section 2). Each area's pages live in `routes/*`; this file places them
 * under their layout. `/` shows the pre-launch landing while config.prelaunch is true (the
 * default until launch, DESIGN.md).
 */
export const routes: RouteObject[] = [
  {
    element: <PreLaunchLayout />,
    children: [
      { index: true, element: <PreLaunchLandingPage /> },
      { path: 'first-200', element: <WaitlistPage /> },
      { path: 'thank-you', element: <ThankYouPage /> },
      { path: 'founding-talent-application', element: <FoundingTalentApplicationPage /> },
      ...prelaunchInfoPages,
      ...mainPages,
      ...infoPages,
      ...talentPages,
      ...foundingPages,
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
