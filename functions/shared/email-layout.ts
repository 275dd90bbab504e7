/** Small helpers for our transactional emails: escaped HTML in one branded frame. */
import { PRODUCT_NAME } from '../../events/product';
import type { Email } from './email';

export type { Email };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Wraps already-escaped body HTML in the shared layout. */
export function frame(title: string, bodyHtml: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;background:#f6f3ef;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1f1a17">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:560px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td><p style="font-weight:700;font-size:20px;margin:0 0 24px">${PRODUCT_NAME}</p>${bodyHtml}
<p style="margin:32px 0 0;font-size:12px;color:#6b625c">${PRODUCT_NAME} · Ethical AI Starts with You</p></td></tr>
</table></td></tr></table></body></html>`;
}
