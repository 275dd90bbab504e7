import { useId } from 'react';

/*
 * Flat, hand-drawn SVG scenes for the home carousel. They stand for kinds of images clients
 * make; they are illustrations, not photos or AI output, and show no real person.
 */

export type SceneKind = 'campaign' | 'lifestyle' | 'editorial' | 'product' | 'outdoor';
type Hair = 'short' | 'long' | 'curly' | 'bun';

interface ScenePalette {
  sky: [string, string];
  skin: string;
  skinShade: string;
  hair: string;
  hairStyle: Hair;
  top: [string, string];
  accent: string;
}

// One row a scene: a table of colours, easier to compare side by side.
const PALETTES: Record<SceneKind, ScenePalette> = {
  campaign: { sky: ['#ffd6b8', '#f29fb5'], skin: '#c98a63', skinShade: '#b07552', hair: '#2b1a12', hairStyle: 'curly', top: ['#c2410c', '#8a2f0a'], accent: '#fff3c4' },
  lifestyle: { sky: ['#fde8cf', '#f6c9a5'], skin: '#f2c3a0', skinShade: '#dca07c', hair: '#6b3a1e', hairStyle: 'long', top: ['#f1f5f9', '#cbd5e1'], accent: '#7a9a62' },
  editorial: { sky: ['#3b2240', '#1f1a17'], skin: '#8d5a3b', skinShade: '#74482e', hair: '#120c09', hairStyle: 'bun', top: ['#7e2a6b', '#4c1d45'], accent: '#f7e6f2' },
  product: { sky: ['#e0f2ef', '#bfe0da'], skin: '#e7b48f', skinShade: '#cf9670', hair: '#1f1a17', hairStyle: 'short', top: ['#0f766e', '#115e59'], accent: '#c2410c' },
  outdoor: { sky: ['#cfe6ff', '#fde2c4'], skin: '#a8704b', skinShade: '#8f5c3b', hair: '#3b2418', hairStyle: 'short', top: ['#ea580c', '#c2410c'], accent: '#5b7f5a' },
};

function Backdrop({ kind, accent }: { kind: SceneKind; accent: string }) {
  switch (kind) {
    case 'campaign':
      return (
        <g>
          <circle cx="318" cy="70" r="38" fill={accent} opacity="0.9" />
          <g fill="#7e2a6b" opacity="0.28">
            <rect x="0" y="170" width="44" height="130" />
            <rect x="48" y="140" width="36" height="160" />
            <rect x="290" y="150" width="40" height="150" />
            <rect x="334" y="118" width="30" height="182" />
            <rect x="368" y="180" width="32" height="120" />
          </g>
        </g>
      );
    case 'lifestyle':
      return (
        <g>
          <rect x="24" y="36" width="108" height="150" rx="6" fill="#fffaf5" opacity="0.85" />
          <path d="M78 36v150M24 111h108" stroke="#e4c2a4" strokeWidth="6" />
          <path d="M336 300c-4-40 4-70 22-92 6 30 4 62-4 92z" fill={accent} />
          <path d="M350 300c6-34 22-58 42-70-2 28-12 52-28 70z" fill={accent} opacity="0.8" />
          <rect x="320" y="262" width="52" height="38" rx="6" fill="#c2410c" />
        </g>
      );
    case 'editorial':
      return (
        <g>
          <circle cx="200" cy="130" r="120" fill={accent} opacity="0.12" />
          <circle cx="200" cy="130" r="80" fill={accent} opacity="0.12" />
          <path d="M30 40l50 26v40l-50 26z" fill="#fff" opacity="0.16" />
          <path d="M370 40l-50 26v40l50 26z" fill="#fff" opacity="0.16" />
        </g>
      );
    case 'product':
      return (
        <g>
          <rect x="0" y="236" width="400" height="64" fill="#fff" opacity="0.45" />
          <circle cx="78" cy="78" r="44" fill="#fff" opacity="0.5" />
        </g>
      );
    case 'outdoor':
      return (
        <g>
          <circle cx="86" cy="70" r="30" fill="#fff3c4" />
          <path d="M-10 240L90 120l70 80 60-70 100 110 90-60v120H-10z" fill={accent} opacity="0.55" />
          <path d="M-10 270l120-70 90 50 110-60 100 80v80H-10z" fill={accent} />
        </g>
      );
  }
}

function HairBack({ style, color }: { style: Hair; color: string }) {
  if (style === 'long') return <path d="M60 84c0-32 17-50 40-50s40 18 40 50v66H60z" fill={color} />;
  if (style === 'curly')
    return (
      <g fill={color}>
        <circle cx="70" cy="66" r="18" />
        <circle cx="86" cy="50" r="20" />
        <circle cx="110" cy="46" r="20" />
        <circle cx="130" cy="62" r="18" />
        <circle cx="136" cy="84" r="14" />
        <circle cx="64" cy="86" r="14" />
      </g>
    );
  if (style === 'bun') return <circle cx="100" cy="36" r="16" fill={color} />;
  return null;
}

function HairFront({ style, color }: { style: Hair; color: string }) {
  if (style === 'curly') return <path d="M68 74c8-20 22-28 34-28s26 8 32 26c-12-8-22-10-34-10s-22 4-32 12z" fill={color} />;
  if (style === 'long') return <path d="M64 84c2-26 16-40 36-40s34 14 36 40c-10-12-22-20-36-22-14 2-26 10-36 22z" fill={color} />;
  if (style === 'bun') return <path d="M65 80c0-26 16-40 35-40s35 14 35 40c-8-12-20-18-35-18s-27 6-35 18z" fill={color} />;
  return <path d="M64 84c-2-32 18-48 38-48 22 0 38 16 36 46-8-14-20-22-36-24-14 6-26 14-38 26z" fill={color} />;
}

export function SceneIllustration({ kind }: { kind: SceneKind }) {
  const id = useId();
  const p = PALETTES[kind];
  const sky = `${id}-sky`;
  const top = `${id}-top`;
  return (
    <svg
      viewBox="0 0 400 300"
      width="400"
      height="300"
      className="scene"
      aria-hidden="true"
      focusable="false"
      preserveAspectRatio="xMidYMid slice"
    >
      <defs>
        <linearGradient id={sky} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={p.sky[0]} />
          <stop offset="1" stopColor={p.sky[1]} />
        </linearGradient>
        <linearGradient id={top} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={p.top[0]} />
          <stop offset="1" stopColor={p.top[1]} />
        </linearGradient>
      </defs>
      <rect width="400" height="300" fill={`url(#${sky})`} />
      <Backdrop kind={kind} accent={p.accent} />
      <g transform="translate(80 60) scale(1.2)">
        <HairBack style={p.hairStyle} color={p.hair} />
        <path d="M44 200c4-44 26-66 56-66s52 22 56 66z" fill={`url(#${top})`} />
        <rect x="88" y="112" width="24" height="30" rx="10" fill={p.skinShade} />
        <ellipse cx="100" cy="86" rx="33" ry="39" fill={p.skin} />
        <HairFront style={p.hairStyle} color={p.hair} />
        {kind === 'product' && (
          <g>
            <rect x="124" y="150" width="26" height="46" rx="6" fill={p.accent} />
            <rect x="130" y="142" width="14" height="10" rx="3" fill="#1f1a17" />
            <ellipse cx="128" cy="178" rx="12" ry="9" fill={p.skin} />
          </g>
        )}
        {kind === 'lifestyle' && (
          <g>
            <rect x="66" y="160" width="22" height="26" rx="4" fill="#fff" stroke="#c9a88c" strokeWidth="2" />
            <ellipse cx="77" cy="186" rx="14" ry="8" fill={p.skin} />
          </g>
        )}
      </g>
    </svg>
  );
}
