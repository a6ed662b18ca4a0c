/** §4 editing a count: who counts, the work center and (where the plant uses them) the deadline. */
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { StockCountRow } from '../../../contract/stock';
import { errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/date-formats';
import { useAllowedPlants, useProfile } from '../../../lib/profile';
import { Dialog } from '../../../components/ui/dialog';
import { FormActions } from '../../../components/ui/form-actions';
import { isCountChangedMeanwhile, shownCount, updateStockCount, type PlanningResult } from '../api/count-planning';
import { getStockCount, stockCountQueries } from '../api/get-stock-counts';
import { CountedBySelect, WorkCenterSelect } from './plant-people-selects';
import { useUnsavedText } from '../../../lib/unsaved-text';

/** What a refused change asked for (waiting-planning.tsx): the form opens on it, over the count as it is now. */
export interface CountEdit {
  conductedBy?: string;
  workCenter?: string;
  shouldBeDoneAt?: string;
}

export function EditCountDialog({
  count: opened,
  initial,
  initialError,
  replaces,
  onClose,
  onSaved,
}: {
  count: StockCountRow;
  initial?: CountEdit;
  /** Why the form opens on `initial`: the refusal of the change it was sent as. */
  initialError?: string;
  /** That refused change's outbox entry: this save takes its place, not a place behind it. */
  replaces?: number;
  onClose: () => void;
  onSaved: (result: PlanningResult) => void;
}) {
  const { email } = useProfile();
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const allowed = useAllowedPlants();
  /** The count as the form shows it: as opened, or as read again after another planner changed it. */
  const [count, setCount] = useState(opened);
  const deadlineAllowed = allowed.count_deadline_allowed_plants.includes(count.plant);
  const [conductedBy, setConductedBy] = useState(initial?.conductedBy ?? count.conducted_by ?? '');
  const [workCenter, setWorkCenter] = useState(initial?.workCenter ?? count.work_center ?? '');
  // A deadline asked for a plant that no longer takes one has no field to show it in: not kept.
  const [deadline, setDeadline] = useState((deadlineAllowed ? initial?.shouldBeDoneAt : undefined) ?? count.should_be_done_at ?? '');
  const [error, setError] = useState<string | null>(initialError ?? null);
  const unsaved = conductedBy !== (count.conducted_by ?? '') || workCenter !== (count.work_center ?? '') || (deadlineAllowed && deadline !== (count.should_be_done_at ?? ''));
  const release = useUnsavedText(unsaved);
  // A new deadline is today or later, as on create: offline the change would wait in the outbox
  // only to be refused on sync. The deadline it has may stay, even one already past.
  const today = dayjs().format('YYYY-MM-DD');
  const deadlineChanged = deadlineAllowed && deadline !== '' && deadline !== count.should_be_done_at;
  const save = useMutation({
    meta: { silent: true },
    // Offline the change goes to the outbox: the mutation must run, not wait for a connection.
    networkMode: 'always',
    mutationFn: () =>
      updateStockCount(
        email,
        'edit',
        {
          stockCountId: count.id,
          ...(conductedBy && conductedBy !== count.conducted_by ? { conductedBy } : {}),
          ...(workCenter && workCenter !== count.work_center ? { workCenter } : {}),
          ...(deadlineChanged ? { shouldBeDoneAt: deadline } : {}),
          // The count as the form shows it (decision 0068): another planner's change since is refused
          // (409), not overwritten. Named now, so a change queued offline names it too.
          expected: shownCount(count),
        },
        replaces,
      ),
    onSuccess: (result) => {
      release();
      onSaved(result);
    },
    onError: async (failure) => {
      setError(await errorMessage(failure));
      if (!(await isCountChangedMeanwhile(failure))) return;
      // Nothing was saved: the form shows the count as it is now (the message says so), and the
      // planner makes the change on that. The list is read again too.
      void queryClient.invalidateQueries({ queryKey: stockCountQueries.all() });
      const now = await getStockCount(opened.id).catch(() => null);
      if (!now) return;
      setCount(now);
      // Opened on a refused change: what the planner asked for stays, with "Now: …" under each field.
      if (initial) return;
      setConductedBy(now.conducted_by ?? '');
      setWorkCenter(now.work_center ?? '');
      setDeadline(now.should_be_done_at ?? '');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (deadlineChanged && deadline < today) {
      setError(t('stockCount.deadlinePast'));
      document.getElementById('ec-deadline')?.focus();
      return;
    }
    save.mutate();
  };
  // Opened on a refused change (`initial`): under each field it changes, what the count holds now.
  const noteOf = (id: string, asked: string | undefined, now: string | null) => (initial && asked !== undefined && asked !== (now ?? '') ? id : undefined);
  const nowOf = (id: string, asked: string | undefined, now: string | null, none: string, shown: (value: string) => string = (value) => value) =>
    noteOf(id, asked, now) ? (
      <p id={id} className="muted small">
        {t('stockCount.nowValue', { value: now ? shown(now) : none })}
      </p>
    ) : null;
  return (
    <Dialog open title={t('stockCount.editTitle', { id: count.id })} onClose={onClose} unsaved={unsaved}>
      <form className="form-grid" onSubmit={submit}>
        {/* A count's person, work center and deadline can be changed, not taken away (the server
            keeps what it has): the empty choices are offered only while the count has none. */}
        <CountedBySelect id="ec-who" plant={count.plant} value={conductedBy} onChange={setConductedBy} allowEmpty={!count.conducted_by} describedBy={noteOf('ec-who-now', initial?.conductedBy, count.conducted_by)} />
        {nowOf('ec-who-now', initial?.conductedBy, count.conducted_by, t('stockCount.unassigned'))}
        <WorkCenterSelect id="ec-wc" plant={count.plant} value={workCenter} onChange={setWorkCenter} allowEmpty={!count.work_center} describedBy={noteOf('ec-wc-now', initial?.workCenter, count.work_center)} />
        {nowOf('ec-wc-now', initial?.workCenter, count.work_center, t('stockCount.fromLocation'))}
        {deadlineAllowed && (
          <>
            <label htmlFor="ec-deadline">{t('stockCount.deadlineLabel')}</label>
            <input
              id="ec-deadline"
              type="date"
              min={count.should_be_done_at && count.should_be_done_at < today ? count.should_be_done_at : today}
              value={deadline}
              required={Boolean(count.should_be_done_at)}
              aria-describedby={noteOf('ec-deadline-now', initial?.shouldBeDoneAt, count.should_be_done_at)}
              onChange={(event) => setDeadline(event.target.value)}
            />
            {nowOf('ec-deadline-now', initial?.shouldBeDoneAt, count.should_be_done_at, t('stockCount.noDeadline'), formatDate)}
          </>
        )}
        <FormActions error={error} onCancel={onClose} submitLabel={t('stockCount.saveChanges')} isPending={save.isPending} />
      </form>
    </Dialog>
  );
}
