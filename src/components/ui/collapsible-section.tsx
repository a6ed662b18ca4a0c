/**
 * A panel whose body folds away under its heading (#21; WAI-ARIA disclosure): open on wide
 * screens, folded on phones so the list under it starts on the first screen.
 */
import { useState, type ReactNode } from 'react';
import { useIsNarrow } from '../../lib/use-media-query';

export function CollapsibleSection({ id, title, className = 'panel', children }: { id: string; title: ReactNode; className?: string; children: ReactNode }) {
  const narrow = useIsNarrow();
  const [open, setOpen] = useState(!narrow);
  return (
    <section className={`${className} collapsible${open ? ' open' : ''}`} aria-labelledby={id}>
      <h2 id={id} className="section-title">
        <button type="button" className="collapsible-toggle" aria-expanded={open} aria-controls={`${id}-body`} onClick={() => setOpen((value) => !value)}>
          {title}
        </button>
      </h2>
      <div id={`${id}-body`} hidden={!open}>
        {children}
      </div>
    </section>
  );
}
