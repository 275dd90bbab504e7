import { lazy } from 'react';
import type { RouteObject } from 'react-router';

/*
 * Account routes: the portal chooser, sign-in pages, the two portals, /create and /checkout (which need
 * the signed-in client). Their layout loads as its own chunk and then loads the auth code (Amplify,
 * the auth context), so marketing pages never download it (decision 023). The pages themselves are
 * chosen inside the layout (../auth/account-page-table.tsx), which keeps their table out of every
 * page's JavaScript; the paths are listed here so the router and the prerenderer know them.
 */
const AccountLayout = lazy(() => import('../auth/AccountLayout').then((m) => ({ default: m.AccountLayout })));

const ACCOUNT_PATHS = ['portal', 'sign-in', 'sign-up', 'confirm-sign-up', 'reset-password', 'client-portal', 'talent-portal', 'create', 'checkout', 'report/appeal/:reference'];

/** Placed inside the main layout by ../routes.tsx. */
export const accountPages: RouteObject = { element: <AccountLayout />, children: ACCOUNT_PATHS.map((path) => ({ path, element: null })) };
