import { lazy } from 'react';
import { useParams } from 'react-router';

/*
 * The route table rides in every page's JavaScript, with the files of each lazy page it names (its
 * scripts and stylesheets, to preload). So the table names only this small module, which has no
 * files of its own, and the pages load from here (../../routes/info-pages.tsx).
 */
const LicensePage = lazy(() => import('./LicensePage').then((m) => ({ default: m.LicensePage })));
const LicenseCheckPage = lazy(() => import('./LicenseCheckPage').then((m) => ({ default: m.LicenseCheckPage })));

/** `/licenses/check` (no id) or `/licenses/:id`. */
export default function LicenseRoutes() {
  return useParams().id ? <LicensePage /> : <LicenseCheckPage />;
}
