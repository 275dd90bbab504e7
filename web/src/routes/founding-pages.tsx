import { lazy } from 'react';
import type { RouteObject } from 'react-router';

/* Separate chunks, like the other legal and contact pages (./info-pages.tsx). */
const FoundingTalentContactPage = lazy(() =>
  import('../pages/contact/ContactPage').then((m) => ({ default: m.FoundingTalentContactPage })),
);
const FoundingTalentPrivacyPage = lazy(() => import('../pages/legal/LegalPages').then((m) => ({ default: m.FoundingTalentPrivacyPage })));
const FoundingTalentTermsPage = lazy(() => import('../pages/legal/LegalPages').then((m) => ({ default: m.FoundingTalentTermsPage })));

/** Founding-talent layout contact and legal pages. */
export const foundingPages: RouteObject[] = [
  { path: 'founding-talent-contact', element: <FoundingTalentContactPage /> },
  { path: 'founding-talent-privacy', element: <FoundingTalentPrivacyPage /> },
  { path: 'founding-talent-terms', element: <FoundingTalentTermsPage /> },
];
