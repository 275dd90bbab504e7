import { useId } from 'react';

/*
 * Hand-drawn SVG "photos" for the photo guide: one simple person, drawn full-length in a
 * 100 x 100 space, cropped by a nested viewBox to show framing (close-up ... full body), turned
 * to show angles, lit by the background, and altered to show what to avoid. Decorative: the
 * caption beside each tile says what it shows.
 */

export type Angle = 'front' | 'left' | 'right' | 'profile';
export type Expression = 'neutral' | 'smile' | 'laugh' | 'serious';
export type Framing = 'close' | 'shoulders' | 'half' | 'full';
export type Light = 'day' | 'golden' | 'indoor' | 'shade' | 'studio';
export type Flaw = 'sunglasses' | 'group' | 'filter' | 'blur' | 'lowres' | 'makeup';

export interface PhotoTileProps {
  angle?: Angle;
  expression?: Expression;
  framing?: Framing;
  light?: Light;
  outfit?: number;
  flaw?: Flaw;
  className?: string;
}

const CROPS: Record<Framing, string> = {
  close: '38.5 10 23 23',
  shoulders: '32 7 36 36',
  half: '24 5 52 52',
  full: '2.5 4 95 95',
};

const LIGHTS: Record<Light, { from: string; to: string; shade: 'left' | 'right' | null; glow: string | null }> = {
  day: { from: '#dbeafe', to: '#fef9c3', shade: null, glow: '#ffffff' },
  golden: { from: '#fed7aa', to: '#f59e0b', shade: 'left', glow: '#fff1c2' },
  indoor: { from: '#f4ede6', to: '#dccfc3', shade: 'right', glow: null },
  shade: { from: '#d9f2e3', to: '#93b894', shade: null, glow: null },
  studio: { from: '#eceef2', to: '#a7adb8', shade: 'right', glow: '#ffffff' },
};

const OUTFITS = ['#7e2a6b', '#c2410c', '#1d4ed8', '#15803d', '#334155'] as const;
const SKIN = '#efb38f';
const SKIN_SHADE = '#dc9a74';
const HAIR = '#3b2418';

const FEATURE_SHIFT: Record<Angle, number> = { front: 0, left: -2.8, right: 2.8, profile: 4.6 };

interface PersonProps {
  angle: Angle;
  expression: Expression;
  outfit: string;
  hair?: string;
  skin?: string;
  flaw?: Flaw;
  shadeId?: string;
  clipId: string;
}

function Person({ angle, expression, outfit, hair = HAIR, skin = SKIN, flaw, shadeId, clipId }: PersonProps) {
  const dx = FEATURE_SHIFT[angle];
  const cx = 50 + dx;
  const mouthHalf = angle === 'profile' ? 1 : angle === 'front' ? 1.8 : 1.5;
  const eyes: { x: number; r: number }[] =
    angle === 'front'
      ? [
          { x: 47.5, r: 0.75 },
          { x: 52.5, r: 0.75 },
        ]
      : angle === 'profile'
        ? [{ x: 54.3, r: 0.7 }]
        : [
            { x: cx - 2.3, r: angle === 'right' ? 0.55 : 0.8 },
            { x: cx + 2.3, r: angle === 'left' ? 0.55 : 0.8 },
          ];
  const browTilt = expression === 'serious' ? 0.6 : expression === 'laugh' ? -0.4 : 0;

  return (
    <g>
      {/* legs and shoes */}
      <path d="M40 61h20l-1.2 34h-6.6L50 71l-2.2 24h-6.6z" fill="#2f2a3a" />
      <ellipse cx="44.5" cy="95.5" rx="3.8" ry="1.6" fill="#1f1a17" />
      <ellipse cx="55.5" cy="95.5" rx="3.8" ry="1.6" fill="#1f1a17" />
      {/* arms */}
      <path d="M39.5 35l-3.6 22" stroke={outfit} strokeWidth="4.4" strokeLinecap="round" />
      <path d="M60.5 35l3.6 22" stroke={outfit} strokeWidth="4.4" strokeLinecap="round" />
      <circle cx="35.7" cy="59" r="2.1" fill={skin} />
      <circle cx="64.3" cy="59" r="2.1" fill={skin} />
      {/* torso and neck */}
      <path d="M38 37c0-4 2.6-6 6-6h12c3.4 0 6 2 6 6l-1 25H39z" fill={outfit} />
      <rect x="47.3" y="26.5" width="5.4" height="5.6" rx="2" fill={SKIN_SHADE} />
      <path d="M45.6 31h8.8l-4.4 3.4z" fill={SKIN_SHADE} />
      {/* back hair */}
      <path d="M42.6 22c-1-7 2.6-10.6 7.4-10.6s8.4 3.6 7.4 10.6l-.6 5.5h-13.6z" fill={hair} />
      {/* head */}
      <g clipPath={`url(#${clipId})`}>
        <ellipse cx="50" cy="21" rx="6.5" ry="7.5" fill={skin} />
        {shadeId && <rect x="36" y="10" width="28" height="20" fill={`url(#${shadeId})`} />}
      </g>
      {angle === 'profile' && (
        <>
          <path d="M56.2 19.6l1.9 2.7-1.8.7" fill={skin} />
          <path d="M43.4 22c-.6-6.4 2.4-9.8 6.8-9.8 3.4 0 5.8 1.6 6.5 4.6-3.2-.4-5.8 1-7.1 3.6l.2 7.2h-6z" fill={hair} />
        </>
      )}
      {/* ears */}
      {angle !== 'right' && angle !== 'profile' && <ellipse cx={angle === 'left' ? 56.4 : 56.5} cy="21.6" rx="0.9" ry="1.5" fill={SKIN_SHADE} />}
      {angle !== 'left' && <ellipse cx={angle === 'profile' ? 50 : 43.5} cy="21.8" rx={angle === 'profile' ? 1.2 : 0.9} ry="1.7" fill={SKIN_SHADE} />}
      {/* fringe */}
      {angle !== 'profile' && <path
        d={`M43.4 20c-.4-5 2.6-7.8 6.6-7.8s7.2 2.8 6.8 7.6c-2.6-.2-5-1.8-6.4-3.8-1.6 2-4 3.4-7 4z`}
        fill={hair}
        transform={`translate(${dx * 0.3} 0)`}
      />}
      {/* makeup under the features */}
      {flaw === 'makeup' && (
        <g>
          {eyes.map((e) => (
            <ellipse key={e.x} cx={e.x} cy="19.8" rx="1.9" ry="1.2" fill="#a21caf" opacity="0.75" />
          ))}
          <circle cx={cx - 3.6} cy="23.2" r="1.4" fill="#f472b6" opacity="0.65" />
          <circle cx={cx + 3.6} cy="23.2" r="1.4" fill="#f472b6" opacity="0.65" />
        </g>
      )}
      {/* brows, eyes, nose, mouth */}
      {eyes.map((e) => (
        <path
          key={`b${e.x}`}
          d={`M${e.x - 1.2} ${18.6 + browTilt * (e.x < cx ? -1 : 1)}L${e.x + 1.2} ${18.6 - browTilt * (e.x < cx ? -1 : 1)}`}
          stroke={hair}
          strokeWidth="0.55"
          strokeLinecap="round"
        />
      ))}
      {eyes.map((e) => (
        <ellipse key={`e${e.x}`} cx={e.x} cy="20.6" rx={e.r} ry="0.8" fill="#2a1d16" />
      ))}
      <path d={`M${cx} 21.2l.7 2-.9.2`} fill="none" stroke={SKIN_SHADE} strokeWidth="0.45" strokeLinecap="round" strokeLinejoin="round" />
      <Mouth x={cx} half={mouthHalf} expression={expression} lipstick={flaw === 'makeup'} />
      {flaw === 'sunglasses' && (
        <g>
          {eyes.map((e) => (
            <rect key={`s${e.x}`} x={e.x - 1.9} y="19.1" width="3.8" height="2.9" rx="1.1" fill="#111827" />
          ))}
          {eyes.length === 2 && <path d={`M${eyes[0]!.x + 1.9} 19.9h${eyes[1]!.x - eyes[0]!.x - 3.8}`} stroke="#111827" strokeWidth="0.5" />}
          {eyes.map((e) => (
            <path key={`g${e.x}`} d={`M${e.x - 1.2} 19.7l.9-.3`} stroke="#fff" strokeWidth="0.35" strokeLinecap="round" opacity="0.8" />
          ))}
        </g>
      )}
    </g>
  );
}

function Mouth({ x, half, expression, lipstick }: { x: number; half: number; expression: Expression; lipstick: boolean }) {
  const color = lipstick ? '#dc2626' : '#9a3d32';
  if (expression === 'laugh') {
    return <path d={`M${x - half - 0.2} 24.1Q${x} 27.6 ${x + half + 0.2} 24.1z`} fill={color} stroke={color} strokeWidth="0.3" />;
  }
  if (lipstick) {
    return <path d={`M${x - half} 24.4Q${x} 26 ${x + half} 24.4Q${x} 23.5 ${x - half} 24.4z`} fill={color} />;
  }
  const curve = expression === 'smile' ? 26 : expression === 'serious' ? 24.3 : 24.9;
  return <path d={`M${x - half} 24.5Q${x} ${curve} ${x + half} 24.5`} fill="none" stroke={color} strokeWidth="0.6" strokeLinecap="round" />;
}

/** The low-resolution example: the same scene sampled on a coarse grid, one flat colour per cell. */
function Mosaic({ crop, bg, outfit }: { crop: string; bg: { from: string; to: string }; outfit: string }) {
  const [x0, y0, size] = crop.split(' ').map(Number) as [number, number, number];
  const cells = 11;
  const step = 100 / cells;
  const rects = [];
  for (let row = 0; row < cells; row++) {
    for (let col = 0; col < cells; col++) {
      const x = x0 + ((col + 0.5) / cells) * size;
      const y = y0 + ((row + 0.5) / cells) * size;
      const inHead = ((x - 50) / 6.5) ** 2 + ((y - 21) / 7.5) ** 2 <= 1;
      const inHair = ((x - 50) / 7.4) ** 2 + ((y - 19.5) / 8.2) ** 2 <= 1 && (y < 16.5 || !inHead);
      const inNeck = x >= 47.3 && x <= 52.7 && y >= 26.5 && y <= 32;
      const inTorso = y >= 31 && x >= 38 && x <= 62;
      const fill = inHair && y < 28 ? HAIR : inHead || inNeck ? SKIN : inTorso ? outfit : row < cells / 2 ? bg.from : bg.to;
      rects.push(<rect key={`${row}-${col}`} x={col * step} y={row * step} width={step + 0.1} height={step + 0.1} fill={fill} />);
    }
  }
  return <g shapeRendering="crispEdges">{rects}</g>;
}

export function PhotoTile({
  angle = 'front',
  expression = 'smile',
  framing = 'shoulders',
  light = 'day',
  outfit = 0,
  flaw,
  className,
}: PhotoTileProps) {
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const bgId = `pt-bg-${uid}`;
  const shadeId = `pt-shade-${uid}`;
  const clipId = `pt-clip-${uid}`;
  const blurId = `pt-blur-${uid}`;
  const filterId = `pt-filter-${uid}`;
  const lit = LIGHTS[light];
  const color = OUTFITS[outfit % OUTFITS.length]!;
  const crop = CROPS[framing];

  return (
    <svg
      viewBox="0 0 100 100"
      className={`photo-tile${className ? ` ${className}` : ''}`}
      aria-hidden="true"
      focusable="false"
      preserveAspectRatio="xMidYMid slice"
    >
      <defs>
        <linearGradient id={bgId} x1="0" y1="0" x2="0.3" y2="1">
          <stop offset="0" stopColor={lit.from} />
          <stop offset="1" stopColor={lit.to} />
        </linearGradient>
        {lit.shade && (
          <linearGradient id={shadeId} x1={lit.shade === 'left' ? '0' : '1'} y1="0" x2={lit.shade === 'left' ? '1' : '0'} y2="0">
            <stop offset="0.38" stopColor="#5b2a12" stopOpacity="0.28" />
            <stop offset="0.62" stopColor="#5b2a12" stopOpacity="0" />
          </linearGradient>
        )}
        <clipPath id={clipId}>
          <ellipse cx="50" cy="21" rx="6.5" ry="7.5" />
        </clipPath>
        <filter id={blurId} x="-10%" y="-10%" width="120%" height="120%">
          <feGaussianBlur stdDeviation="2.2" />
        </filter>
        <linearGradient id={filterId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#ff4fd8" />
          <stop offset="1" stopColor="#22d3ee" />
        </linearGradient>
      </defs>

      {flaw === 'lowres' ? (
        <Mosaic crop={crop} bg={lit} outfit={color} />
      ) : (
        <g>
          <rect width="100" height="100" fill={`url(#${bgId})`} />
          <g filter={flaw === 'blur' ? `url(#${blurId})` : undefined}>
          {lit.glow && <circle cx={lit.shade === 'left' ? 82 : 18} cy="14" r="22" fill={lit.glow} opacity="0.45" />}
          <svg x="0" y="0" width="100" height="100" viewBox={crop} preserveAspectRatio="xMidYMid slice">
            {flaw === 'group' && (
              <>
                <g transform="translate(-15 3)">
                  <Person angle="right" expression="laugh" outfit="#15803d" hair="#a16207" skin="#f5cfb4" clipId={clipId} />
                </g>
                <g transform="translate(15 3)">
                  <Person angle="left" expression="smile" outfit="#1d4ed8" hair="#111827" skin="#c98a62" clipId={clipId} />
                </g>
              </>
            )}
            {flaw === 'group' ? (
              <g transform="translate(50 21) scale(0.92) translate(-50 -21)">
                <Person angle={angle} expression={expression} outfit={color} flaw={flaw} clipId={clipId} />
              </g>
            ) : (
              <Person angle={angle} expression={expression} outfit={color} flaw={flaw} shadeId={lit.shade ? shadeId : undefined} clipId={clipId} />
            )}
          </svg>
          </g>
          {flaw === 'filter' && (
            <g>
              <rect width="100" height="100" fill={`url(#${filterId})`} opacity="0.42" style={{ mixBlendMode: 'color' }} />
              <rect width="100" height="100" fill={`url(#${filterId})`} opacity="0.2" />
              {[
                [18, 20, 5],
                [82, 28, 4],
                [76, 80, 6],
                [22, 74, 3.5],
              ].map(([x, y, r]) => (
                <path
                  key={`${x}-${y}`}
                  d={`M${x} ${y! - r!}l${r! * 0.3} ${r! * 0.7} ${r! * 0.7} ${r! * 0.3}-${r! * 0.7} ${r! * 0.3}-${r! * 0.3} ${r! * 0.7}-${r! * 0.3}-${r! * 0.7}-${r! * 0.7}-${r! * 0.3} ${r! * 0.7}-${r! * 0.3}z`}
                  fill="#fff"
                  opacity="0.9"
                />
              ))}
            </g>
          )}
        </g>
      )}
    </svg>
  );
}
