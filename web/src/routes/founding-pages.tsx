import { lazy } from 'react';
import type { RouteObject } from 'react-router';

/* Separate chunks, like the other legal and contact pages (./info-pages.tsx). */
const FoundingTalentContactPage = lazy(() =>
  import('../pages/contact/ContactPage').then((m) => ({ default: m.FoundingTalentContactPage })),
);
const FoundingTalentPrivacyPage = lazy(() => import('../pages/legal/LegalPages').then((m) => ({ default: m.FoundingTalentPrivacyPage })));
const FoundingTalentTermsPage = lazy(() => import('../pages/legal/LegalPages').then((m) => ({ default: m.FoundingTalentTermsPage })));
const ConfirmApplicationPage = lazy(() => import('../pages/founding/ConfirmApplicationPage').then((m) => ({ default: m.ConfirmApplicationPage })));

/** Founding-talent layout contact and legal pages, and the application's confirmation page. */
export const foundingPages: RouteObject[] = [
  { path: 'founding-talent-contact', element: <FoundingTalentContactPage /> },
  { path: 'founding-talent-privacy', element: <FoundingTalentPrivacyPage /> },
  { path: 'founding-talent-terms', element: <FoundingTalentTermsPage /> },
  // The link of the address confirmation email (decision 013).
  { path: 'founding-talent-application/confirm', element: <ConfirmApplicationPage /> },
];
