/**
 * The planner's changes that have not reached the server yet (made offline, or whose answer was
 * lost): what each one is, whether it waits or was refused (with the server's message), and the
 * actions that resolve it. When one is confirmed, the list of counts is fetched again.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { OutboxEntry } from '../../../offline/db';
import { PLANNING_SCOPE, discardEntry } from '../offline/count-sheet';
import { retryEntry } from '../../../offline/outbox';
import { useOutboxEntries } from '../../../offline/outbox-live';
import type { PlanningSummary } from '../api/count-planning';
import '../stock-count.css';

function describe(t: (key: string, options?: Record<string, unknown>) => string, summary: PlanningSummary | undefined): string {
  if (!summary) return t('stockCount.waiting.unknown');
  if (summary.action === 'create') {
    return t('stockCount.waiting.create', {
      type: t(summary.type === 'single' ? 'stockCount.type.single' : 'stockCount.type.wall_to_wall'),
      plant: summary.plant,
      location: summary.storageLocation,
    });
  }
  return t(`stockCount.waiting.${summary.action}`, { id: summary.stockCountId });
}

export function WaitingPlanning({ userEmail, onConfirmed }: { userEmail: string; onConfirmed: () => void }) {
  const { t } = useTranslation();
  const entries = useOutboxEntries(PLANNING_SCOPE, userEmail);
  const previous = useRef(entries.length);
  useEffect(() => {
    if (entries.length < previous.current) onConfirmed();
    previous.current = entries.length;
  }, [entries.length, onConfirmed]);
  if (entries.length === 0) return null;
  return (
    <section className="panel waiting-planning" aria-labelledby="waiting-planning-title">
      <h2 id="waiting-planning-title" className="section-title">
        {t('stockCount.waiting.title', { count: entries.length })}
      </h2>
      <ul className="waiting-list">
        {entries.map((entry: OutboxEntry) => (
          <li key={entry.seq} className={`waiting-item ${entry.status}`}>
            <span className="waiting-what">{describe(t, entry.summary as PlanningSummary | undefined)}</span>
            {entry.status === 'failed' ? (
              <>
                <span className="waiting-state" role="alert">
                  {t('sync.failedText', { message: entry.lastError ?? '' })}
                </span>
                <span className="line-sync-actions">
                  <button type="button" className="button small" onClick={() => void retryEntry(entry.seq!)}>
                    {t('sync.retry')}
                  </button>
                  <button type="button" className="button small" onClick={() => void discardEntry(entry)}>
                    {t('sync.discard')}
                  </button>
                </span>
              </>
            ) : (
              <span className="waiting-state">{t('sync.pending')}</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
