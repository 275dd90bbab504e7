// The emails Cognito sends for accounts (codes and the talent's invitation), in our layout. Cognito
// puts the code (or the temporary password) where `{####}` stands and the username where
// `{username}` stands; it sends the message as one HTML body, so each must hold `{####}` once
// (the CustomMessage trigger, functions/accounts/triggers/custom-message/).
import { PRODUCT_NAME } from '../../events/product';
import { escapeHtml, frame, type Email } from '../shared/email-layout';

/** Cognito's placeholders. */
export const CODE_PLACEHOLDER = '{####}';
export const USERNAME_PLACEHOLDER = '{username}';

/** What a code email is for. */
export type CodePurpose = 'sign-up' | 'resend' | 'forgot-password' | 'update-email' | 'verify-email';

export interface AccountMessage {
  subject: string;
  /** The email body (HTML), with the placeholder(s) Cognito fills. */
  html: string;
}

const CODE_BLOCK = `<p style="font-size:28px;font-weight:700;letter-spacing:6px;margin:24px 0;font-family:Menlo,Consolas,monospace">${CODE_PLACEHOLDER}</p>`;

const button = (href: string, label: string) =>
  `<p><a href="${escapeHtml(href)}" style="display:inline-block;background:#7e2a6b;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(label)}</a></p>`;

// Cognito's codes last 24 hours, except password reset codes (1 hour).
const CODE_TEXTS: Record<CodePurpose, { subject: string; lead: string; after: string; validity: string }> = {
  'sign-up': {
    subject: `Your ${PRODUCT_NAME} confirmation code`,
    lead: `Welcome to ${PRODUCT_NAME}. Enter this code to confirm your email and finish creating your account:`,
    after: 'If you did not create an account, ignore this email: the account stays unconfirmed and cannot be used.',
    validity: '24 hours',
  },
  resend: {
    subject: `Your new ${PRODUCT_NAME} confirmation code`,
    lead: 'Here is a new code to confirm your email. Codes sent before this one no longer work:',
    after: 'If you did not create an account, ignore this email: the account stays unconfirmed and cannot be used.',
    validity: '24 hours',
  },
  'forgot-password': {
    subject: `Reset your ${PRODUCT_NAME} password`,
    lead: 'Someone (we hope you) asked to reset the password of your account. Enter this code to choose a new one:',
    after: 'If you did not ask, ignore this email: your password stays as it is.',
    validity: '1 hour',
  },
  'update-email': {
    subject: `Confirm your new ${PRODUCT_NAME} email`,
    lead: 'Enter this code to confirm this address as the email of your account:',
    after: 'If you did not change your email, ignore this email: your account keeps its current address.',
    validity: '24 hours',
  },
  'verify-email': {
    subject: `Your ${PRODUCT_NAME} verification code`,
    lead: 'Enter this code to verify your email:',
    after: 'If you did not ask for it, ignore this email.',
    validity: '24 hours',
  },
};

/** An email carrying a code (`{####}` once). */
export function accountCodeEmail(purpose: CodePurpose): AccountMessage {
  const { subject, lead, after, validity } = CODE_TEXTS[purpose];
  const html = frame(
    subject,
    `<p>${escapeHtml(lead)}</p>
${CODE_BLOCK}
<p style="font-size:13px;color:#6b625c">The code works for ${validity}. Never share it: ${PRODUCT_NAME} will never ask you for it.</p>
<p>${escapeHtml(after)}</p>
<p>The ${PRODUCT_NAME} team</p>`,
  );
  return { subject, html };
}

/**
 * The invitation a talent gets when an administrator creates their account after acceptance:
 * their username and temporary password, and where to sign in (they choose a password then).
 */
export function talentInvitationEmail(siteUrl: string): AccountMessage {
  const signIn = `${siteUrl.replace(/\/$/, '')}/sign-in`;
  const subject = `Your ${PRODUCT_NAME} talent account is ready`;
  const html = frame(
    subject,
    `<p>Welcome to ${PRODUCT_NAME}. Your application was accepted and your talent account is ready.</p>
<p>Sign in with your username <strong>${USERNAME_PLACEHOLDER}</strong> and this temporary password:</p>
${CODE_BLOCK}
${button(signIn, 'Sign in')}
<p style="font-size:13px;color:#6b625c">Or paste this link into your browser: ${escapeHtml(signIn)}</p>
<p>You will choose your own password when you first sign in. The temporary password works for 3 days.</p>
<p>The ${PRODUCT_NAME} team</p>`,
  );
  return { subject, html };
}

/**
 * What the owner of an account gets when someone signs up again with its address
 * (docs/product.md#sign-up-conflicts): the sign-up page answered "check your email" as for a new
 * address, so the page tells nobody the account exists; this email tells its owner, and where to
 * sign in or reset the password.
 */
export function existingAccountEmail(siteUrl: string): Email {
  const site = siteUrl.replace(/\/$/, '');
  const signIn = `${site}/sign-in`;
  const reset = `${site}/reset-password`;
  const subject = `You already have a ${PRODUCT_NAME} account`;
  const lead = `Someone (we hope you) just tried to create a ${PRODUCT_NAME} account with this email address. There is already an account with it, so no new account was made.`;
  const next = 'Sign in with your password. If you forgot it, reset it: we will email you a code.';
  const after = 'If this was not you, ignore this email: your account stays as it is, and nobody learned that it exists.';
  const html = frame(
    subject,
    `<p>${escapeHtml(lead)}</p>
<p>${escapeHtml(next)}</p>
${button(signIn, 'Sign in')}
<p style="font-size:13px;color:#6b625c">Forgot your password? <a href="${escapeHtml(reset)}">${escapeHtml(reset)}</a></p>
<p>${escapeHtml(after)}</p>
<p>The ${PRODUCT_NAME} team</p>`,
  );
  const text = `${lead}\n\n${next}\n\nSign in: ${signIn}\nReset your password: ${reset}\n\n${after}\n\nThe ${PRODUCT_NAME} team`;
  return { subject, text, html };
}
