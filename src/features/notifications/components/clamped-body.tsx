/**
 * A notification's body folded to three lines (#21): a long message no longer fills a phone's
 * screen. "Show more" appears only when the text is longer than that and unfolds it in place
 * (disclosure: aria-expanded on the button, aria-controls the body). Screen readers read the whole
 * text either way: the fold is visual only.
 */
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function ClampedBody({ id, children }: { id: string; children: ReactNode }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLParagraphElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const body = ref.current;
    if (!body || expanded) return;
    const measure = () => setOverflows(body.scrollHeight > body.clientHeight + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(body);
    return () => observer.disconnect();
  }, [expanded]);
  return (
    <>
      <p id={id} ref={ref} className={`notification-card-body${expanded ? '' : ' clamped'}`}>
        {children}
      </p>
      {(overflows || expanded) && (
        <button type="button" className="show-more" aria-expanded={expanded} aria-controls={id} onClick={() => setExpanded((value) => !value)}>
          {expanded ? t('notifications.showLess') : t('notifications.showMore')}
        </button>
      )}
    </>
  );
}
