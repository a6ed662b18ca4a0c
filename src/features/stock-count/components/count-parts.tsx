/**
 * #18 several counters on one count: progress per counter (no quantities: a counter sees only
 * their own), and on the counter's sheet their part with "my part is done".
 */
import { useTranslation } from 'react-i18next';
import type { StockCountPartRow } from '../../../contract/stock-count-parts';
import type { OutboxEntry } from '../../../offline/db';
import { CollapsibleSection } from '../../../components/ui/collapsible-section';
import '../stock-count.css';

const who = (part: StockCountPartRow) => part.counter_name ?? part.counter;

/** A part's state as the count's own chips show it: done like a completed count, else counting. */
function PartStatus({ part }: { part: StockCountPartRow }) {
  const { t } = useTranslation();
  return <span className={`status-chip ${part.status === 'done' ? 'status-completed' : 'status-in_progress'}`}>{t(`stockCount.parts.status.${part.status}`)}</span>;
}

/** One row per counter: who, their part's name, counted of total, done or still counting. */
export function PartsProgress({ parts }: { parts: StockCountPartRow[] }) {
  const { t } = useTranslation();
  return (
    <ul className="parts-progress">
      {parts.map((part) => (
        <li key={part.id} className="parts-progress-row">
          <span className="parts-progress-who">
            <strong>{who(part)}</strong>
            {part.label && <span className="muted small">{part.label}</span>}
          </span>
          <span className="parts-progress-count">
            <span className="progress-bar" aria-hidden="true">
              <span style={{ width: `${part.total_lines ? (part.counted_lines / part.total_lines) * 100 : 0}%` }} />
            </span>
            <span className="small">{t('stockCount.progress', { counted: part.counted_lines, total: part.total_lines })}</span>
          </span>
          <PartStatus part={part} />
        </li>
      ))}
    </ul>
  );
}

/**
 * The counter's own part on their sheet: what it is, "my part is done" once every line of it is
 * counted (or open it again), the state of that change on its way, and the other counters'
 * progress folded away under it.
 */
export function MyPart({
  part,
  parts,
  allCounted,
  canEdit,
  entry,
  onStatus,
  onRetry,
  onDiscard,
}: {
  part: StockCountPartRow;
  parts: StockCountPartRow[];
  allCounted: boolean;
  canEdit: boolean;
  entry: OutboxEntry | undefined;
  onStatus: (status: StockCountPartRow['status']) => void;
  onRetry: (entry: OutboxEntry) => void;
  onDiscard: (entry: OutboxEntry) => void;
}) {
  const { t } = useTranslation();
  const others = parts.filter((row) => row.id !== part.id);
  return (
    <div className="my-part">
      <div className="my-part-head">
        <span className="my-part-what">
          <strong>{part.label ? t('stockCount.parts.mineLabelled', { label: part.label }) : t('stockCount.parts.mine')}</strong>
          <PartStatus part={part} />
          {part.control_lines > 0 && <span className="muted small">{t('stockCount.parts.controlLines', { count: part.control_lines })}</span>}
        </span>
        {canEdit &&
          (part.status === 'done' ? (
            <button type="button" className="button small ghost" onClick={() => onStatus('open')}>
              {t('stockCount.parts.reopen')}
            </button>
          ) : (
            <button type="button" className="button small primary" disabled={!allCounted} aria-describedby={allCounted ? undefined : 'my-part-hint'} onClick={() => onStatus('done')}>
              {t('stockCount.parts.done')}
            </button>
          ))}
      </div>
      {canEdit && part.status !== 'done' && !allCounted && (
        <p id="my-part-hint" className="muted small">
          {t('stockCount.parts.doneHint')}
        </p>
      )}
      {entry && (
        <p className={`notice${entry.status === 'failed' ? ' danger' : ''}`} role="status">
          {entry.status === 'failed' ? (
            <>
              <span>{t('sync.failedText', { message: entry.lastError ?? '' })}</span>
              <button type="button" className="button small" onClick={() => onRetry(entry)}>
                {t('sync.retry')}
              </button>
              <button type="button" className="button small" onClick={() => onDiscard(entry)}>
                {t('sync.discard')}
              </button>
            </>
          ) : (
            t('stockCount.parts.statusQueued')
          )}
        </p>
      )}
      {others.length > 0 && (
        <CollapsibleSection id="other-parts" className="other-parts" title={t('stockCount.parts.others', { count: others.length })}>
          <p className="muted small">{t('stockCount.parts.othersNote')}</p>
          <PartsProgress parts={others} />
        </CollapsibleSection>
      )}
    </div>
  );
}
