import { identityLink } from '../../../web/src/pages/founding-identity/flow';
import { QUIET_ZONE, qrPath } from '../../../web/src/pages/founding-identity/qr';
import { TOKEN } from './support';

/** The dark modules of a path made of `M{x} {y}h1v1h-1z` squares, as "x,y". */
function darkModules(path: string): Set<string> {
  const squares = [...path.matchAll(/M(\d+) (\d+)h1v1h-1z/g)];
  expect(squares.map((m) => m[0]).join('')).toBe(path);
  return new Set(squares.map((m) => `${m[1]},${m[2]}`));
}

/** Whether the 7 x 7 finder pattern (a dark ring, a light ring, a dark 3 x 3 centre) starts at x, y. */
function finderAt(dark: Set<string>, x0: number, y0: number): boolean {
  for (let y = 0; y < 7; y++) {
    for (let x = 0; x < 7; x++) {
      const ring = x === 0 || y === 0 || x === 6 || y === 6;
      const centre = x >= 2 && x <= 4 && y >= 2 && y <= 4;
      if (dark.has(`${x0 + x},${y0 + y}`) !== (ring || centre)) return false;
    }
  }
  return true;
}

describe('the QR code of the handoff link', () => {
  const link = identityLink('https://humanly.example', TOKEN);
  const { side, path } = qrPath(link);
  const dark = darkModules(path);
  const size = side - 2 * QUIET_ZONE;

  it('has the three finder patterns a camera looks for, in a light quiet zone', () => {
    expect(finderAt(dark, QUIET_ZONE, QUIET_ZONE)).toBe(true);
    expect(finderAt(dark, QUIET_ZONE + size - 7, QUIET_ZONE)).toBe(true);
    expect(finderAt(dark, QUIET_ZONE, QUIET_ZONE + size - 7)).toBe(true);
    expect(finderAt(dark, QUIET_ZONE + size - 7, QUIET_ZONE + size - 7)).toBe(false);
    for (const cell of dark) {
      const [x, y] = cell.split(',').map(Number) as [number, number];
      expect(Math.min(x, y)).toBeGreaterThanOrEqual(QUIET_ZONE);
      expect(Math.max(x, y)).toBeLessThan(QUIET_ZONE + size);
    }
  });

  it('is a size of the QR standard, small enough to scan from a screen', () => {
    expect((size - 17) % 4).toBe(0);
    const version = (size - 17) / 4;
    expect(version).toBeGreaterThanOrEqual(1);
    expect(version).toBeLessThanOrEqual(6);
  });

  it('changes with the link and is the same for the same link', () => {
    expect(qrPath(link).path).toBe(path);
    expect(qrPath(identityLink('https://humanly.example', TOKEN.replace(/^tok/, 'TOK'))).path).not.toBe(path);
  });
});
