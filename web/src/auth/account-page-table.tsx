import { lazy, type ComponentType } from 'react';

/** Each account page is its own chunk, loaded once the auth code is in (./AccountLayout.tsx). */
const ACCOUNT_PAGES: Record<string, { title: string; Page: ComponentType }> = {
  '/portal': { title: 'Sign in', Page: lazy(() => import('../pages/portal/PortalPage').then((m) => ({ default: m.PortalPage }))) },
  '/sign-in': { title: 'Sign in', Page: lazy(() => import('../pages/account/SignInPage').then((m) => ({ default: m.SignInPage }))) },
  '/sign-up': { title: 'Create an account', Page: lazy(() => import('../pages/account/SignUpPage').then((m) => ({ default: m.SignUpPage }))) },
  '/confirm-sign-up': {
    title: 'Confirm your email',
    Page: lazy(() => import('../pages/account/ConfirmSignUpPage').then((m) => ({ default: m.ConfirmSignUpPage }))),
  },
  '/reset-password': {
    title: 'Reset your password',
    Page: lazy(() => import('../pages/account/ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage }))),
  },
  '/client-portal': {
    title: 'Client Portal',
    Page: lazy(() => import('../pages/portal/ClientPortalPage').then((m) => ({ default: m.ClientPortalPage }))),
  },
  '/talent-portal': {
    title: 'Talent Portal',
    Page: lazy(() => import('../pages/portal/TalentPortalPage').then((m) => ({ default: m.TalentPortalPage }))),
  },
  '/checkout': {
    title: 'Checkout',
    Page: lazy(() => import('../pages/portal/CheckoutPage').then((m) => ({ default: m.CheckoutPage }))),
  },
  '/create': {
    title: 'Create Ethical Content',
    Page: lazy(() => import('../pages/create/CreatePage').then((m) => ({ default: m.CreatePage }))),
  },
  /* /report/appeal/<reference>: the client's appeal of a decision about their license. */
  '/report/appeal': {
    title: 'Appeal a decision',
    Page: lazy(() => import('../pages/portal/appeal/AppealPage').then((m) => ({ default: m.AppealPage }))),
  },
};

/** The page for a path (a trailing slash allowed); a path with a parameter by the path before it. */
export function accountPage(pathname: string) {
  const path = pathname.replace(/\/+$/, '') || '/';
  return ACCOUNT_PAGES[path] ?? (/^\/report\/appeal\/[^/]+$/.test(path) ? ACCOUNT_PAGES['/report/appeal'] : undefined);
}
