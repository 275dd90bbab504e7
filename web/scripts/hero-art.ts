/**
 * Draws the decorative photo of the /talent-application hero (a PhotoTile, the photo guide's
 * hand-drawn person) into web/public/talent-application-photo.svg:
 *
 *   npx tsx --tsconfig web/tsconfig.json web/scripts/hero-art.ts
 *
 * then commit it; run it again after changing PhotoTile's drawing. The file is drawn once, like
 * the social cards, so the build needs no extra step. The hero shows it as an image, so the page
 * does not load the PhotoTile code (about 3 KB of gzipped JavaScript) for a picture that never
 * changes (decision 063).
 */
import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { PhotoTile, type PhotoTileProps } from '../src/components/PhotoTile';

const HERO_PHOTO_FILE = fileURLToPath(new URL('../public/talent-application-photo.svg', import.meta.url));
/** The tile the hero shows. */
const HERO_PHOTO: PhotoTileProps = { angle: 'left', light: 'golden', outfit: 0, expression: 'smile' };

/** The tile as a standalone SVG file. */
function heroPhotoSvg(): string {
  const markup = renderToStaticMarkup(createElement(PhotoTile, HERO_PHOTO));
  return `${markup.replace('<svg ', '<svg xmlns="http://www.w3.org/2000/svg" ')}\n`;
}

fs.writeFileSync(HERO_PHOTO_FILE, heroPhotoSvg());
console.log(`Wrote ${HERO_PHOTO_FILE}`);
