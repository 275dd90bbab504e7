// The emulator's images: local previews, never AI output. A subject picture (a talent's preview
// picture, the first photo of a trained version's training set, or a neutral figure) looked at
// differently per output index, tinted and framed by the style, with the prompt's words and the
// red LOCAL PREVIEW banner, 512 px PNG, rendered with sharp.
import sharp from 'sharp';

const IMAGE_SIZE = 512;

const STYLE_LOOKS: Record<string, { tint: string; opacity: number; frame: string; grey?: boolean }> = {
  photorealistic: { tint: '#000000', opacity: 0, frame: '#3b3b3b' },
  portrait: { tint: '#c8773c', opacity: 0.18, frame: '#8a4b22' },
  commercial: { tint: '#1e6fd9', opacity: 0.16, frame: '#1e6fd9' },
  editorial: { tint: '#000000', opacity: 0, frame: '#111111', grey: true },
  creative: { tint: '#b620c9', opacity: 0.22, frame: '#b620c9' },
  lifestyle: { tint: '#e0b21b', opacity: 0.18, frame: '#4f8a2b' },
};

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** Lines of at most `width` characters, at most `max` lines (the last one cut with an ellipsis). */
function wrap(text: string, width: number, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (next.length <= width) line = next;
    else {
      if (line) lines.push(line);
      line = word.slice(0, width);
    }
  }
  if (line) lines.push(line);
  if (lines.length > max) {
    lines.length = max;
    lines[max - 1] = `${lines[max - 1].slice(0, width - 3)}...`;
  }
  return lines;
}

/**
 * One preview image: the subject picture (or a neutral placeholder), looked at differently per
 * output index, tinted and framed by the style, with the prompt's words and the banner.
 */
export async function renderPreview(picture: Buffer | undefined, prompt: string, index: number, count: number): Promise<Buffer> {
  const styleName = /,\s*([A-Za-z]+) style\s*$/.exec(prompt)?.[1]?.toLowerCase() ?? 'photorealistic';
  const look = STYLE_LOOKS[styleName] ?? STYLE_LOOKS.photorealistic;
  const subject = picture ?? Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_SIZE}" height="${IMAGE_SIZE}"><rect width="100%" height="100%" fill="#d9d9d9"/><circle cx="256" cy="210" r="90" fill="#b3b3b3"/><rect x="126" y="320" width="260" height="200" rx="120" fill="#b3b3b3"/></svg>`,
  );
  // Each index zooms and shifts the subject and turns its hue a little: four distinct images.
  const zoom = Math.round(IMAGE_SIZE * (1 + 0.12 * index));
  let image = sharp(subject, { density: 144 })
    .resize(zoom, zoom, { fit: 'cover' })
    .extract({ left: Math.round((zoom - IMAGE_SIZE) * (index % 2 ? 1 : 0)), top: Math.round((zoom - IMAGE_SIZE) / 2), width: IMAGE_SIZE, height: IMAGE_SIZE })
    .modulate({ hue: index * 40 });
  if (look.grey) image = image.grayscale();
  const lines = wrap(prompt, 40, 3);
  const text = lines
    .map((l, i) => `<text x="24" y="${IMAGE_SIZE - 92 + i * 24}" font-family="sans-serif" font-size="18" fill="#ffffff">${escapeXml(l)}</text>`)
    .join('');
  const overlay = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_SIZE}" height="${IMAGE_SIZE}">` +
      `<rect width="100%" height="100%" fill="${look.tint}" opacity="${look.opacity}"/>` +
      `<rect x="6" y="6" width="${IMAGE_SIZE - 12}" height="${IMAGE_SIZE - 12}" fill="none" stroke="${look.frame}" stroke-width="12"/>` +
      `<rect x="12" y="${IMAGE_SIZE - 116}" width="${IMAGE_SIZE - 24}" height="104" fill="#000000" opacity="0.55"/>${text}` +
      `<text x="${IMAGE_SIZE - 24}" y="${IMAGE_SIZE - 20}" font-family="sans-serif" font-size="14" fill="#ffffff" text-anchor="end">${index + 1} / ${count}</text>` +
      `<rect x="12" y="12" width="${IMAGE_SIZE - 24}" height="44" fill="#b00020"/>` +
      `<text x="${IMAGE_SIZE / 2}" y="42" font-family="sans-serif" font-size="22" font-weight="bold" fill="#ffffff" text-anchor="middle">LOCAL PREVIEW - not AI output</text>` +
      `</svg>`,
  );
  const base = await image.png().toBuffer();
  return sharp(base).composite([{ input: overlay }]).png({ compressionLevel: 6 }).toBuffer();
}

/** A photo as a preview's subject: upright, cropped square around its centre, 512 px PNG (kept small in memory). */
export function previewSubject(photo: Buffer): Promise<Buffer> {
  return sharp(photo).rotate().resize(IMAGE_SIZE, IMAGE_SIZE, { fit: 'cover' }).png().toBuffer();
}
