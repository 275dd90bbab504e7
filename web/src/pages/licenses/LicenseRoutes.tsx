import { lazy } from 'react';
import { useLocation, useParams } from 'react-router';
import { VERIFY_PATH } from '../../../../events/content-credentials';

/*
 * The route table rides in every page's JavaScript, with the files of each lazy page it names (its
 * scripts and stylesheets, to preload). So the table names only this small module, which has no
 * files of its own, and the pages load from here (../../routes/info-pages.tsx).
 */
const LicensePage = lazy(() => import('./LicensePage').then((m) => ({ default: m.LicensePage })));
const LicenseCheckPage = lazy(() => import('./LicenseCheckPage').then((m) => ({ default: m.LicenseCheckPage })));
const VerifyPage = lazy(() => import('./VerifyPage').then((m) => ({ default: m.VerifyPage })));

/** `/licenses/check` (no id), `/licenses/:id`, or `/verify` (Content Credentials). */
export default function LicenseRoutes() {
  const id = useParams().id;
  const { pathname } = useLocation();
  if (pathname.replace(/\/+$/, '') === VERIFY_PATH) return <VerifyPage />;
  return id ? <LicensePage /> : <LicenseCheckPage />;
}
