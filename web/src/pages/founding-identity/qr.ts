import { encode } from 'uqr';

/** Light modules around the code, as the QR standard asks, so a phone's camera finds its edges. */
export const QUIET_ZONE = 4;

/**
 * A QR code of `text` as one SVG path (a unit square per dark module, quiet zone included) and
 * the side of its viewBox. Error correction M: a screen's glare or a smudge still reads.
 */
export function qrPath(text: string): { side: number; path: string } {
  const { data, size } = encode(text, { ecc: 'M', border: 0 });
  const parts: string[] = [];
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) parts.push(`M${x + QUIET_ZONE} ${y + QUIET_ZONE}h1v1h-1z`);
    }),
  );
  return { side: size + 2 * QUIET_ZONE, path: parts.join('') };
}
