import {
  HASH_HEIGHT,
  HASH_WIDTH,
  differenceHash,
  hammingDistance,
  laplacianVariance,
  meanLuminance,
} from '../../../functions/founding/faces/measures';

const image = (width: number, height: number, pixel: (x: number, y: number) => number) => {
  const grey = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) grey[y * width + x] = pixel(x, y);
  return grey;
};

describe('meanLuminance', () => {
  it('averages the pixels', () => {
    expect(meanLuminance(image(4, 2, (x) => (x < 2 ? 0 : 200)))).toBe(100);
    expect(meanLuminance(new Uint8Array(0))).toBe(0);
  });
});

describe('laplacianVariance', () => {
  it('is zero for a flat image and for an even ramp, larger for fine detail than for coarse', () => {
    expect(laplacianVariance(image(16, 16, () => 90), 16, 16)).toBe(0);
    expect(laplacianVariance(image(16, 16, (x) => x * 10), 16, 16)).toBe(0);
    const checks = laplacianVariance(image(16, 16, (x, y) => ((x + y) % 2 ? 255 : 0)), 16, 16);
    const stripes = laplacianVariance(image(16, 16, (x) => (Math.floor(x / 4) % 2 ? 255 : 0)), 16, 16);
    expect(checks).toBeGreaterThan(stripes);
    expect(stripes).toBeGreaterThan(0);
  });
});

describe('differenceHash', () => {
  const photo = image(HASH_WIDTH, HASH_HEIGHT, (x, y) => (x * 37 + y * 91 + ((x * y) % 7) * 13) % 256);
  const mirrored = image(HASH_WIDTH, HASH_HEIGHT, (x, y) => photo[y * HASH_WIDTH + (HASH_WIDTH - 1 - x)]);

  it('sets a bit where a pixel is brighter than its right neighbour: 256 bits in 64 hex digits', () => {
    expect(differenceHash(image(HASH_WIDTH, HASH_HEIGHT, (x) => 255 - x))).toBe('f'.repeat(64));
    expect(differenceHash(image(HASH_WIDTH, HASH_HEIGHT, (x) => x))).toBe('0'.repeat(64));
    expect(differenceHash(photo)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("gives a mirrored photo's hash when asked to read the rows from the right", () => {
    expect(differenceHash(photo, true)).toBe(differenceHash(mirrored));
    expect(differenceHash(mirrored, true)).toBe(differenceHash(photo));
    expect(hammingDistance(differenceHash(photo), differenceHash(mirrored))).toBeGreaterThan(24);
  });

  it('does not change when every pixel brightens alike', () => {
    const brighter = photo.map((value) => Math.min(255, Math.round(value * 0.8) + 40));
    expect(hammingDistance(differenceHash(photo), differenceHash(Uint8Array.from(brighter)))).toBeLessThan(8);
  });

  it('refuses a thumbnail of another size', () => {
    expect(() => differenceHash(new Uint8Array(64))).toThrow(/17x16/);
  });
});

describe('hammingDistance', () => {
  it('counts differing bits', () => {
    expect(hammingDistance('00', '00')).toBe(0);
    expect(hammingDistance('0f', 'f0')).toBe(8);
    expect(hammingDistance('a5', '5a')).toBe(8);
    expect(hammingDistance('8', '1')).toBe(2);
    expect(() => hammingDistance('0', '00')).toThrow();
  });
});
