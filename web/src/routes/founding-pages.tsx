import { lazy } from 'react';
import type { RouteObject } from 'react-router';

/* Separate chunks, like the other legal and contact pages (./info-pages.tsx). */
const FoundingTalentContactPage = lazy(() =>
  import('../pages/contact/ContactPage').then((m) => ({ default: m.FoundingTalentContactPage })),
);
const FoundingTalentPrivacyPage = lazy(() => import('../pages/legal/PrivacyPages').then((m) => ({ default: m.FoundingTalentPrivacyPage })));
const FoundingTalentTermsPage = lazy(() => import('../pages/legal/TermsPages').then((m) => ({ default: m.FoundingTalentTermsPage })));
/* The applicant's consent and selfie, and the replace-photos link (docs/identity.md): a chunk each. */
const IdentityPage = lazy(() => import('../pages/founding-identity/IdentityPage').then((m) => ({ default: m.IdentityPage })));
const ReplacePhotosPage = lazy(() => import('../pages/founding-identity/ReplacePhotosPage').then((m) => ({ default: m.ReplacePhotosPage })));

/** Founding-talent layout contact and legal pages, and the applicant's identity pages. */
export const foundingPages: RouteObject[] = [
  { path: 'founding-talent-contact', element: <FoundingTalentContactPage /> },
  { path: 'founding-talent-privacy', element: <FoundingTalentPrivacyPage /> },
  { path: 'founding-talent-terms', element: <FoundingTalentTermsPage /> },
  { path: 'founding/identity', element: <IdentityPage /> },
  { path: 'founding/photos', element: <ReplacePhotosPage /> },
];
