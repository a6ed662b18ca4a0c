/**
 * The planner's changes that have not reached the server yet (made offline, or whose answer was
 * lost): what each one is, whether it waits or was refused (with the server's message), and the
 * actions that resolve it. When one is confirmed, the list of counts is fetched again.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OutboxEntry } from '../../../offline/db';
import type { CreateStockCountBody, StockCountRow } from '../../../contract/stock';
import { errorMessage } from '../../../lib/api-client';
import { PLANNING_SCOPE, discardEntry } from '../offline/count-sheet';
import { retryEntry } from '../../../offline/outbox';
import { useOutboxEntries } from '../../../offline/outbox-live';
import type { PlanningResult, PlanningSummary } from '../api/count-planning';
import { getStockCount } from '../api/get-stock-counts';
import { CreateCountDialog } from './create-count-dialog';
import { EditCountDialog, type CountEdit } from './edit-count-dialog';
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

/**
 * A refused edit of a count (changed meanwhile by another planner, a person no longer allowed…),
 * with what it asked for: Edit opens the count's form as the count is now, filled with that.
 */
export function refusedEdit(entry: OutboxEntry): ({ stockCountId: number } & CountEdit) | null {
  const summary = entry.summary as PlanningSummary | undefined;
  if (entry.status !== 'failed' || summary?.action !== 'edit' || entry.request.method !== 'PUT') return null;
  const body = entry.request.json as Record<string, unknown> | undefined;
  if (!body || typeof body.stockCountId !== 'number') return null;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const asked: CountEdit = { conductedBy: text(body.conductedBy), workCenter: text(body.workCenter), shouldBeDoneAt: text(body.shouldBeDoneAt) };
  return { stockCountId: body.stockCountId, ...Object.fromEntries(Object.entries(asked).filter(([, value]) => value !== undefined)) };
}

/**
 * A row action that waits while `busy`: aria-disabled, not disabled (a disabled button drops the
 * keyboard focus to the page), and a press meanwhile does nothing.
 */
const waits = (busy: boolean, run: () => void) => ({
  'aria-disabled': busy || undefined,
  onClick: () => {
    if (!busy) run();
  },
});

export function WaitingPlanning({
  userEmail,
  onConfirmed,
  onCreated,
  onEdited,
}: {
  userEmail: string;
  onConfirmed: () => void;
  /** A refused create, corrected with Edit, was sent (or queued) again. */
  onCreated: (result: PlanningResult, draft: boolean) => void;
  /** A refused edit, made again with Edit on the count as it is now, was saved (or queued). */
  onEdited: (result: PlanningResult, stockCountId: number) => void;
}) {
  const { t } = useTranslation();
  const entries = useOutboxEntries(PLANNING_SCOPE, userEmail);
  const previous = useRef(entries.length);
  const [editing, setEditing] = useState<{ entry: OutboxEntry; body: CreateStockCountBody } | null>(null);
  const [reediting, setReediting] = useState<{ entry: OutboxEntry; count: StockCountRow; asked: CountEdit } | null>(null);
  /** An Edit whose count could not be read as it is now: why, by the entry's seq. */
  const [readFailed, setReadFailed] = useState<{ seq: number; message: string } | null>(null);
  /**
   * The entry whose count is being read for Edit: its row's actions wait meanwhile (`waits`), and
   * every Edit (one form at a time).
   */
  const [reading, setReading] = useState<number | null>(null);
  const editAgain = async (entry: OutboxEntry, edit: { stockCountId: number } & CountEdit) => {
    setReadFailed(null);
    setReading(entry.seq!);
    const { stockCountId, ...asked } = edit;
    try {
      const now = await getStockCount(stockCountId);
      if (now) setReediting({ entry, count: now, asked });
      else setReadFailed({ seq: entry.seq!, message: t('stockCount.waiting.countGone', { id: stockCountId }) });
    } catch (failure) {
      setReadFailed({ seq: entry.seq!, message: t('stockCount.waiting.countNotRead', { id: stockCountId, message: await errorMessage(failure) }) });
    } finally {
      setReading(null);
    }
  };
  // A change refused is an answer too: the list is read again (the count as it is now, changed by
  // someone else, say), as after one confirmed.
  const refusedCount = entries.filter((entry) => entry.status === 'failed').length;
  const previousRefused = useRef(refusedCount);
  useEffect(() => {
    if (entries.length < previous.current || refusedCount > previousRefused.current) onConfirmed();
    previous.current = entries.length;
    previousRefused.current = refusedCount;
  }, [entries.length, refusedCount, onConfirmed]);
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
  const editForm = reediting && (
    <EditCountDialog
      count={reediting.count}
      initial={reediting.asked}
      initialError={t('sync.failedText', { message: reediting.entry.lastError ?? '' })}
      replaces={reediting.entry.seq}
      onClose={() => setReediting(null)}
      onSaved={(result) => {
        const refused = reediting.entry;
        setReediting(null);
        // Saved or queued again: only now is the refused change dropped (nothing typed is lost).
        void discardEntry(refused);
        onEdited(result, reediting.count.id);
      }}
    />
  );
  if (entries.length === 0)
    return (
      <>
        {form}
        {editForm}
      </>
    );
  return (
    <>
      <section className="panel waiting-planning" aria-labelledby="waiting-planning-title">
        <h2 id="waiting-planning-title" className="section-title">
          {refusedCount === 0
            ? t('stockCount.waiting.title', { count: entries.length })
            : refusedCount === entries.length
              ? t('stockCount.waiting.refusedTitle', { count: refusedCount })
              : t('stockCount.waiting.mixedTitle', { count: entries.length, refused: t('stockCount.waiting.refusedOfThem', { count: refusedCount }) })}
        </h2>
        <ul className="waiting-list">
          {entries.map((entry: OutboxEntry) => {
            const create = refusedCreate(entry);
            const edit = refusedEdit(entry);
            return (
              <li key={entry.seq} className={`waiting-item ${entry.status}`}>
                <span id={`waiting-${entry.seq}`} className="waiting-what">
                  {describe(t, entry.summary as PlanningSummary | undefined)}
                </span>
                {entry.status === 'failed' ? (
                  <>
                    <span className="waiting-state" role="alert">
                      {t('sync.failedText', { message: entry.lastError ?? '' })}
                    </span>
                    <span className="line-sync-actions">
                      {/* A refused create (an unknown material, say) fails again as it is: Edit corrects it, keeping what was filled in. */}
                      {create && (
                        <button type="button" className="button small" aria-describedby={`waiting-${entry.seq}`} {...waits(reading !== null, () => setEditing({ entry, body: create }))}>
                          {t('stockCount.edit')}
                        </button>
                      )}
                      {/* A refused edit opens the count as it is now, with what the planner asked for. */}
                      {edit && (
                        <button type="button" className="button small" aria-describedby={`waiting-${entry.seq}`} {...waits(reading !== null, () => void editAgain(entry, edit))}>
                          {t('stockCount.edit')}
                        </button>
                      )}
                      {/* Refused because the count changed meanwhile: the same request is refused again. */}
                      {!entry.staleBase && (
                        <button type="button" className="button small" aria-describedby={`waiting-${entry.seq}`} {...waits(reading === entry.seq, () => void retryEntry(entry.seq!))}>
                          {t('sync.retry')}
                        </button>
                      )}
                      <button type="button" className="button small" aria-describedby={`waiting-${entry.seq}`} {...waits(reading === entry.seq, () => void discardEntry(entry))}>
                        {t('sync.discard')}
                      </button>
                    </span>
                    {readFailed && readFailed.seq === entry.seq && (
                      <span className="waiting-state" role="alert">
                        {readFailed.message}
                      </span>
                    )}
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
      {editForm}
    </>
  );
}
