import { useEffect, useId, useState, type ReactNode } from 'react';
import { usePrefersReducedMotion } from '../lib/usePrefersReducedMotion';
import { useHoverFocusPause } from './RotatingWord';
import './Carousel.css';

export interface CarouselSlide {
  id: string;
  /** Visible content of the slide. */
  content: ReactNode;
}

interface CarouselProps {
  /** Accessible name of the carousel region, e.g. "What creators make". */
  label: string;
  slides: readonly CarouselSlide[];
  /** Autoplay interval: 3500 ms on the home page, 3400 ms on the founding page (docs/product.md#intervals). */
  intervalMs: number;
  className?: string;
  testId?: string;
}

/**
 * An autoplaying, looping carousel following the WAI-ARIA APG carousel pattern: a region with
 * aria-roledescription="carousel", slides labelled "N of M", previous/next and pause/play
 * buttons. Autoplay holds while the pointer is over it or focus is inside it, and it does not
 * start at all for people who prefer reduced motion (they can still start it with the button).
 * While it plays the slides are not announced (aria-live off); when stopped, changes are polite.
 */
export function Carousel({ label, slides, intervalMs, className, testId = 'carousel' }: CarouselProps) {
  const reducedMotion = usePrefersReducedMotion();
  const [index, setIndex] = useState(0);
  /** null until the user presses pause/play: the default then follows the motion preference. */
  const [userPlaying, setUserPlaying] = useState<boolean | null>(null);
  const { held, handlers } = useHoverFocusPause();
  const slidesId = useId();
  const count = slides.length;

  const autoplay = (userPlaying ?? !reducedMotion) && count > 1;
  const moving = autoplay && !held;

  useEffect(() => {
    if (!moving) return undefined;
    // A timeout per slide (not an interval) so a manual change gives the new slide its full time.
    const timer = window.setTimeout(() => setIndex((i) => (i + 1) % count), intervalMs);
    return () => window.clearTimeout(timer);
  }, [moving, index, intervalMs, count]);

  const go = (next: number) => setIndex(((next % count) + count) % count);

  return (
    <section
      className={`carousel ${className ?? ''}`}
      aria-roledescription="carousel"
      aria-label={label}
      data-testid={testId}
      data-playing={moving ? 'true' : 'false'}
      {...handlers}
    >
      <div className="carousel__viewport">
        <div
          id={slidesId}
          className="carousel__track"
          aria-live={moving ? 'off' : 'polite'}
          style={{ transform: `translateX(-${index * 100}%)` }}
        >
          {slides.map((slide, i) => (
            <div
              key={slide.id}
              className="carousel__slide"
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${count}`}
              aria-hidden={i !== index}
              inert={i !== index}
              data-testid="carousel-slide"
              data-active={i === index ? 'true' : 'false'}
            >
              {slide.content}
            </div>
          ))}
        </div>
      </div>

      {count > 1 && (
        <div className="carousel__controls">
          <button
            type="button"
            className="carousel__button"
            onClick={() => setUserPlaying(!autoplay)}
            aria-label={autoplay ? 'Stop automatic slide show' : 'Start automatic slide show'}
            data-testid="carousel-play-toggle"
          >
            <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
              {autoplay ? (
                <path d="M5 3.5v9M11 3.5v9" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
              ) : (
                <path d="M5 3v10l8-5z" fill="currentColor" />
              )}
            </svg>
          </button>
          <div className="carousel__dots" aria-hidden="true">
            {slides.map((slide, i) => (
              <span key={slide.id} className="carousel__dot" data-active={i === index ? 'true' : 'false'} />
            ))}
          </div>
          <div className="carousel__arrows">
            <button
              type="button"
              className="carousel__button"
              onClick={() => go(index - 1)}
              aria-controls={slidesId}
              aria-label="Previous slide"
              data-testid="carousel-previous"
            >
              <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
                <path d="M10 3L5 8l5 5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
            </button>
            <button
              type="button"
              className="carousel__button"
              onClick={() => go(index + 1)}
              aria-controls={slidesId}
              aria-label="Next slide"
              data-testid="carousel-next"
            >
              <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
                <path d="M6 3l5 5-5 5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
            </button>
          </div>
        </div>
      )}
    </section>
  );
}

/** A slide of a picture over a caption: a bold title, then a line of text (`{className}__caption`). */
export function CaptionedSlide({ className, media, title, text }: { className: string; media: ReactNode; title: string; text: ReactNode }) {
  return (
    <figure className={className}>
      {media}
      <figcaption className={`${className}__caption`}>
        <strong>{title}</strong>
        <span>{text}</span>
      </figcaption>
    </figure>
  );
}
