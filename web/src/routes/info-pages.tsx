import type { RouteObject } from 'react-router';
import { PreLaunchContactPage, PreLaunchPrivacyPage, PreLaunchTermsPage } from '../pages/PlaceholderPages';

/** Main-site information pages (main layout): contact, legal, guides, talent application. */
export const infoPages: RouteObject[] = [];

/** Pre-launch legal and contact pages (pre-launch layout). */
export const prelaunchInfoPages: RouteObject[] = [
  { path: 'pre-launch-contact', element: <PreLaunchContactPage /> },
  { path: 'pre-launch-privacy', element: <PreLaunchPrivacyPage /> },
  { path: 'pre-launch-terms', element: <PreLaunchTermsPage /> },
];
