import { useCallback, useEffect, useMemo, useState, type FocusEvent } from 'react';
import { usePrefersReducedMotion } from '../lib/usePrefersReducedMotion';
import './RotatingWord.css';

/** Spread on the element whose hover or keyboard focus should hold the rotation still. */
export interface PauseHandlers {
  onMouseEnter: () => void;
  onMouseLeave: () => void;
  onFocus: () => void;
  onBlur: (event: FocusEvent<HTMLElement>) => void;
}

export interface RotatingWordState {
  word: string;
  firstWord: string;
  /** True when the rotation is running (not paused, not held by hover/focus, motion allowed). */
  rotating: boolean;
  /** False when the user prefers reduced motion: the word never changes, no toggle is needed. */
  canRotate: boolean;
  /** Paused by the user with the toggle (stays paused until they resume). */
  paused: boolean;
  togglePaused: () => void;
  /** Hold the rotation while the pointer is over, or focus is inside, the element they are spread on. */
  pauseHandlers: PauseHandlers;
}

/** Hover and focus-within tracking for "pause while the user is looking at it" (WCAG 2.2.2). */
export function useHoverFocusPause(): { held: boolean; handlers: PauseHandlers } {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const onMouseEnter = useCallback(() => setHovered(true), []);
  const onMouseLeave = useCallback(() => setHovered(false), []);
  const onFocus = useCallback(() => setFocused(true), []);
  const onBlur = useCallback((event: FocusEvent<HTMLElement>) => {
    // Focus moving between children of the same element keeps it held.
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
  }, []);
  const handlers = useMemo(() => ({ onMouseEnter, onMouseLeave, onFocus, onBlur }), [onMouseEnter, onMouseLeave, onFocus, onBlur]);
  return { held: hovered || focused, handlers };
}

/**
 * Cycles through `words` every `intervalMs`. With prefers-reduced-motion the first word stays
 * still. Pausing is offered because WCAG 2.2.2 requires a way to stop content that moves by
 * itself; hovering or focusing the element that carries `pauseHandlers` also holds it.
 */
export function useRotatingWord(words: readonly string[], intervalMs: number): RotatingWordState {
  const reducedMotion = usePrefersReducedMotion();
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const { held, handlers } = useHoverFocusPause();
  const canRotate = !reducedMotion && words.length > 1;
  const rotating = canRotate && !paused && !held;

  useEffect(() => {
    if (!rotating) return undefined;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % words.length), intervalMs);
    return () => window.clearInterval(timer);
  }, [rotating, words.length, intervalMs]);

  return {
    word: words[canRotate ? index : 0] ?? '',
    firstWord: words[0] ?? '',
    rotating,
    canRotate,
    paused,
    togglePaused: () => setPaused((p) => !p),
    pauseHandlers: handlers,
  };
}

/**
 * The visible, animated word. Assistive technology hears only the first word: a heading that
 * changes every few seconds is noise, and aria-live on it would interrupt constantly.
 */
export function RotatingWord({ state, className }: { state: RotatingWordState; className?: string }) {
  return (
    <>
      <span className="sr-only">{state.firstWord}</span>
      <span
        className={`rotating-word ${className ?? ''}`}
        aria-hidden="true"
        data-testid="rotating-word"
        data-rotating={state.rotating ? 'true' : 'false'}
      >
        <span key={state.word} className="rotating-word__inner">
          {state.word}
        </span>
      </span>
    </>
  );
}

/** Pause/resume button; render it outside the heading so it is not part of the heading's name. */
export function RotationToggle({ state, className }: { state: RotatingWordState; className?: string }) {
  if (!state.canRotate) return null;
  return (
    <button
      type="button"
      className={`rotation-toggle ${className ?? ''}`}
      onClick={state.togglePaused}
      data-testid="rotation-toggle"
    >
      <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
        {state.paused ? (
          <path d="M5 3.5v9l7-4.5z" fill="currentColor" />
        ) : (
          <path d="M5 3.5v9M11 3.5v9" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
        )}
      </svg>
      {state.paused ? 'Play animation' : 'Pause animation'}
    </button>
  );
}
