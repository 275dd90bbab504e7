import { lazy, Suspense, useEffect, useRef, useState } from 'react';

const DemoWidget = lazy(() => import('../../components/demo/DemoWidget').then((m) => ({ default: m.DemoWidget })));

/**
 * The how-it-will-work demo, fetched when its section comes near the viewport rather than with
 * the page: it sits below the fold and would push the page's start-up script over budget.
 */
export function DeferredDemo({ ctaLabel, ctaTargetId }: { ctaLabel: string; ctaTargetId: string }) {
  const [near, setNear] = useState(false);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el || near) return undefined;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: '600px 0px' });
    observer.observe(el);
    return () => observer.disconnect();
  }, [near]);

  const placeholder = <div className="demo-placeholder card" aria-hidden="true" />;
  return (
    <div ref={ref} data-testid="demo-slot">
      {near ? (
        <Suspense fallback={placeholder}>
          <DemoWidget ctaLabel={ctaLabel} ctaTargetId={ctaTargetId} />
        </Suspense>
      ) : (
        placeholder
      )}
    </div>
  );
}
