import { createBrowserRouter, type RouteObject } from 'react-router';
import { PreLaunchLayout } from './components/PreLaunchLayout';
import { NotFoundPage } from './pages/NotFoundPage';
import {
  FoundingTalentApplicationPage,
  PreLaunchContactPage,
  PreLaunchPrivacyPage,
  PreLaunchTermsPage,
} from './pages/PlaceholderPages';
import { PreLaunchLandingPage } from './pages/PreLaunchLandingPage';
import { ThankYouPage } from './pages/thank-you/ThankYouPage';
import { WaitlistPage } from './pages/waitlist/WaitlistPage';

/**
 * Route table (spec section 2). Only the pre-launch site exists so far; `/` shows the
 * pre-launch landing while config.prelaunch is true (the default until launch, DESIGN.md).
 * The main-site routes (/home-preview, /talent, /create, ...) join this table later.
 */
export const routes: RouteObject[] = [
  {
    element: <PreLaunchLayout />,
    children: [
      { index: true, element: <PreLaunchLandingPage /> },
      { path: 'first-200', element: <WaitlistPage /> },
      { path: 'thank-you', element: <ThankYouPage /> },
      { path: 'founding-talent-application', element: <FoundingTalentApplicationPage /> },
      { path: 'pre-launch-contact', element: <PreLaunchContactPage /> },
      { path: 'pre-launch-privacy', element: <PreLaunchPrivacyPage /> },
      { path: 'pre-launch-terms', element: <PreLaunchTermsPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
