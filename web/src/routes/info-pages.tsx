import { lazy } from 'react';
import type { RouteObject } from 'react-router';

/*
 * These pages are long (legal text, the photo guide's illustrations, the application form), so
 * each loads as its own chunk (React.lazy in `element`, see ../app.tsx); the build prerenders
 * them, so the HTML is on screen before the chunk arrives.
 */
const MainContactPage = lazy(() => import('../pages/contact/ContactPage').then((m) => ({ default: m.MainContactPage })));
const PreLaunchContactPage = lazy(() => import('../pages/contact/ContactPage').then((m) => ({ default: m.PreLaunchContactPage })));
const PrivacyPage = lazy(() => import('../pages/legal/PrivacyPages').then((m) => ({ default: m.PrivacyPage })));
const TermsPage = lazy(() => import('../pages/legal/TermsPages').then((m) => ({ default: m.TermsPage })));
const PreLaunchPrivacyPage = lazy(() => import('../pages/legal/PrivacyPages').then((m) => ({ default: m.PreLaunchPrivacyPage })));
const PreLaunchTermsPage = lazy(() => import('../pages/legal/TermsPages').then((m) => ({ default: m.PreLaunchTermsPage })));
const TrainingGuideMainPage = lazy(() => import('../pages/guides/TrainingGuidePage').then((m) => ({ default: m.TrainingGuideMainPage })));
const TrainingGuideFoundersPage = lazy(() =>
  import('../pages/guides/TrainingGuidePage').then((m) => ({ default: m.TrainingGuideFoundersPage })),
);
const TalentApplicationPage = lazy(() =>
  import('../pages/talent-application/TalentApplicationPage').then((m) => ({ default: m.TalentApplicationPage })),
);
const ReportPage = lazy(() => import('../pages/report/ReportPage').then((m) => ({ default: m.ReportPage })));
/* Both license pages behind one import of a module without files of its own (see LicenseRoutes): this table is in every page's JavaScript. */
const LicenseRoutes = lazy(() => import('../pages/licenses/LicenseRoutes'));

/** Main-site information pages (main layout): contact, legal, guides, talent application, license pages (docs/product.md#licenses), the report form (docs/product.md#reports-and-takedown). */
export const infoPages: RouteObject[] = [
  { path: 'contact', element: <MainContactPage /> },
  { path: 'privacy', element: <PrivacyPage /> },
  { path: 'terms', element: <TermsPage /> },
  { path: 'training-image-best-practices', element: <TrainingGuideMainPage /> },
  { path: 'training-image-best-practices-founders', element: <TrainingGuideFoundersPage /> },
  { path: 'talent-application', element: <TalentApplicationPage /> },
  { path: 'licenses/check', element: <LicenseRoutes /> },
  { path: 'licenses/:id', element: <LicenseRoutes /> },
  { path: 'report', element: <ReportPage /> },
  { path: 'verify', element: <LicenseRoutes /> },
];

/** Pre-launch legal and contact pages (pre-launch layout); each links back to the waitlist. */
export const prelaunchInfoPages: RouteObject[] = [
  { path: 'pre-launch-contact', element: <PreLaunchContactPage /> },
  { path: 'pre-launch-privacy', element: <PreLaunchPrivacyPage /> },
  { path: 'pre-launch-terms', element: <PreLaunchTermsPage /> },
];
