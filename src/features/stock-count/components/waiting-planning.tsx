/**
 * The planner's changes that have not reached the server yet (made offline, or whose answer was
 * lost): what each one is, whether it waits or was refused (with the server's message), and the
 * actions that resolve it. When one is confirmed, the list of counts is fetched again.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OutboxEntry } from '../../../offline/db';
import type { CreateStockCountBody } from '../../../contract/stock';
import { PLANNING_SCOPE, discardEntry } from '../offline/count-sheet';
import { retryEntry } from '../../../offline/outbox';
import { useOutboxEntries } from '../../../offline/outbox-live';
import type { PlanningResult, PlanningSummary } from '../api/count-planning';
import { CreateCountDialog } from './create-count-dialog';
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

/** A refused create, with the request it sent: Edit opens the create form with what was filled in. */
export function refusedCreate(entry: OutboxEntry): CreateStockCountBody | null {
  const summary = entry.summary as PlanningSummary | undefined;
  if (entry.status !== 'failed' || summary?.action !== 'create' || entry.request.method !== 'POST') return null;
  const body = entry.request.json as Partial<CreateStockCountBody> | undefined;
  return body && typeof body.plant === 'string' && typeof body.storageLocation === 'string' && (body.type === 'single' || body.type === 'wall_to_wall') ? (body as CreateStockCountBody) : null;
}

export function WaitingPlanning({
  userEmail,
  onConfirmed,
  onCreated,
}: {
  userEmail: string;
  onConfirmed: () => void;
  /** A refused create, corrected with Edit, was sent (or queued) again. */
  onCreated: (result: PlanningResult, draft: boolean) => void;
}) {
  const { t } = useTranslation();
  const entries = useOutboxEntries(PLANNING_SCOPE, userEmail);
  const previous = useRef(entries.length);
  const [editing, setEditing] = useState<{ entry: OutboxEntry; body: CreateStockCountBody } | null>(null);
  useEffect(() => {
    if (entries.length < previous.current) onConfirmed();
    previous.current = entries.length;
  }, [entries.length, onConfirmed]);
  // The form is mounted on its own, not inside the list: the list goes once its last entry does.
  const form = editing && (
    <CreateCountDialog
      open
      initial={editing.body}
      initialError={t('sync.failedText', { message: editing.entry.lastError ?? '' })}
      onClose={() => setEditing(null)}
      onCreated={(result, draft) => {
        const refused = editing.entry;
        setEditing(null);
        // The corrected count is sent or queued (createStockCount resolves once it is in the
        // outbox): only now is the refused one dropped, so what was typed is never lost.
        void discardEntry(refused);
        onCreated(result, draft);
      }}
    />
  );
  if (entries.length === 0) return form;
  return (
    <>
      <section className="panel waiting-planning" aria-labelledby="waiting-planning-title">
        <h2 id="waiting-planning-title" className="section-title">
          {t('stockCount.waiting.title', { count: entries.length })}
        </h2>
        <ul className="waiting-list">
          {entries.map((entry: OutboxEntry) => {
            const create = refusedCreate(entry);
            return (
              <li key={entry.seq} className={`waiting-item ${entry.status}`}>
                <span className="waiting-what">{describe(t, entry.summary as PlanningSummary | undefined)}</span>
                {entry.status === 'failed' ? (
                  <>
                    <span className="waiting-state" role="alert">
                      {t('sync.failedText', { message: entry.lastError ?? '' })}
                    </span>
                    <span className="line-sync-actions">
                      {/* A refused create (an unknown material, say) fails again as it is: Edit corrects it, keeping what was filled in. */}
                      {create && (
                        <button type="button" className="button small" onClick={() => setEditing({ entry, body: create })}>
                          {t('stockCount.edit')}
                        </button>
                      )}
                      {/* Refused because the count changed meanwhile: the same request is refused again. */}
                      {!entry.staleBase && (
                        <button type="button" className="button small" onClick={() => void retryEntry(entry.seq!)}>
                          {t('sync.retry')}
                        </button>
                      )}
                      <button type="button" className="button small" onClick={() => void discardEntry(entry)}>
                        {t('sync.discard')}
                      </button>
                    </span>
                  </>
                ) : (
                  <span className="waiting-state">{t('sync.pending')}</span>
                )}
              </li>
            );
          })}
        </ul>
      </section>
      {form}
    </>
  );
}
