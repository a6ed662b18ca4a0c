/**
 * A notification's body folded to three lines (#21): a long message no longer fills a phone's
 * screen. "Show more" appears only when the text is longer than that and unfolds it in place
 * (disclosure: aria-expanded on the button, aria-controls the body). Screen readers read the whole
 * text either way: the fold is visual only.
 *
 * A list holds many cards, each with its own button: its accessible name names the card ("Show more
 * of “Stock count 12 is due”"), so a list of buttons read out is not ten times "Show more". The
 * name starts with the visible words, which voice control users say (WCAG 2.5.3 label in name).
 */
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function FoldButton({ bodyId, title, expanded, onToggle }: { bodyId: string; title: string; expanded: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const named = title.trim();
  return (
    <button
      type="button"
      className="show-more"
      aria-expanded={expanded}
      aria-controls={bodyId}
      aria-label={named ? t(expanded ? 'notifications.showLessOf' : 'notifications.showMoreOf', { title: named }) : undefined}
      onClick={onToggle}
    >
      {expanded ? t('notifications.showLess') : t('notifications.showMore')}
    </button>
  );
}

/** `title`: the card's title, naming its button. */
export function ClampedBody({ id, title, children }: { id: string; title: string; children: ReactNode }) {
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
      {(overflows || expanded) && <FoldButton bodyId={id} title={title} expanded={expanded} onToggle={() => setExpanded((value) => !value)} />}
    </>
  );
}
