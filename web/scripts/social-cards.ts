/**
 * Draws the social cards (the picture a shared link unfurls with) as 1200x630 PNGs in
 * web/public/social/, one per `card` in web/src/lib/seo.ts: `npm run social-cards`, then commit them.
 *
 * The images are drawn once and committed, not at every build, so building the site needs no browser.
 * The prerenderer fails when a card named in seo.ts has no image.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { BRAND_NAME } from '../src/brand';
import { escapeHtml } from './prerender';
import { socialCards, type RouteMeta } from '../src/lib/seo';

const OUT_DIR = fileURLToPath(new URL('../public/social/', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ACCENTS: Record<RouteMeta['card']['accent'], { from: string; to: string; soft: string }> = {
  coral: { from: '#c2410c', to: '#a3324a', soft: '#ffe3cc' },
  plum: { from: '#a3324a', to: '#7e2a6b', soft: '#f6def0' },
  teal: { from: '#0f766e', to: '#7e2a6b', soft: '#dff3ef' },
};

const LOGO = `<svg width="88" height="88" viewBox="0 0 32 32" aria-hidden="true"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#c2410c"/><stop offset="1" stop-color="#7e2a6b"/></linearGradient></defs><rect width="32" height="32" rx="8" fill="url(#g)"/><circle cx="16" cy="11.5" r="4.5" fill="#fff"/><path d="M7.5 25.5c1.4-4.6 4.6-7 8.5-7s7.1 2.4 8.5 7" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>`;

function cardHtml(card: RouteMeta['card']): string {
  const accent = ACCENTS[card.accent];
  return `<!doctype html><html><head><meta charset="utf-8"><style>
  * { box-sizing: border-box; margin: 0; }
  html, body { width: 1200px; height: 630px; }
  body {
    font-family: 'DejaVu Sans', 'Liberation Sans', system-ui, sans-serif;
    color: #1f1a17;
    background: #fffaf5;
    /* Flat colours: a PNG of smooth gradients is several times larger. */
    border-top: 20px solid ${accent.soft};
    padding: 52px 84px 72px;
    display: flex; flex-direction: column; justify-content: space-between;
  }
  .brand { display: flex; align-items: center; gap: 24px; font-size: 44px; font-weight: 700; letter-spacing: -0.5px; }
  .kicker { display: inline-block; font-size: 30px; font-weight: 700; color: #fff; padding: 10px 24px; border-radius: 999px;
    background: linear-gradient(135deg, ${accent.from}, ${accent.to}); margin-bottom: 28px; }
  h1 { font-size: ${card.headline.length <= 36 ? 76 : card.headline.length <= 52 ? 62 : 54}px; line-height: 1.08; letter-spacing: -1.5px; font-weight: 800; max-width: 1000px; }
  .foot { display: flex; justify-content: space-between; font-size: 28px; color: #5c524b; }
  .bar { height: 12px; border-radius: 6px; width: 260px; align-self: center; background: linear-gradient(90deg, ${accent.from}, ${accent.to}); }
  </style></head><body>
  <div class="brand">${LOGO}<span>${escapeHtml(BRAND_NAME)}</span></div>
  <div><span class="kicker">${escapeHtml(card.kicker)}</span><h1>${escapeHtml(card.headline)}</h1></div>
  <div class="foot"><span>Ethical AI images of real, consenting people</span><span class="bar"></span></div>
  </body></html>`;
}

async function main() {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 630 }, deviceScaleFactor: 1 });
    for (const card of socialCards()) {
      await page.setContent(cardHtml(card));
      const file = path.join(OUT_DIR, `${card.file}.png`);
      await page.screenshot({ path: file, type: 'png' });
      console.log(`${path.relative(process.cwd(), file)} (${Math.round(fs.statSync(file).size / 1024)} KB)`);
    }
  } finally {
    await browser.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
