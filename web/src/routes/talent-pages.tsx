import { lazy } from 'react';
import type { RouteObject } from 'react-router';

/*
 * The library and profiles load as their own chunk (React.lazy in `element`, see ../app.tsx):
 * visitors who land on other pages do not download them. The build prerenders /talent (its
 * loading state; the data comes from the catalog API), so the page is on screen before the chunk.
 */
const TalentLibraryPage = lazy(() => import('../pages/talent/TalentLibraryPage').then((m) => ({ default: m.TalentLibraryPage })));
const TalentProfilePage = lazy(() => import('../pages/talent/TalentProfilePage').then((m) => ({ default: m.TalentProfilePage })));

/** The Talent Library and talent profiles (main layout). */
export const talentPages: RouteObject[] = [
  { path: 'talent', element: <TalentLibraryPage /> },
  { path: 'talent/:id', element: <TalentProfilePage /> },
];
