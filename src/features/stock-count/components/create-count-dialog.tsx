/**
 * Create a counting request (§2 /stock-count): plant, storage location (reset when the plant
 * changes), type, who counts, work center, deadline (only where the plant uses deadlines), the
 * materials of a single count. Saved as a draft or sent to the person counting.
 */
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api-client';
import { focusFirstInvalid } from '../../../lib/focus-first-invalid';
import { isSuperManager } from '../../../domain/permissions';
import { useAllowedPlants, useProfile } from '../../../lib/profile';
import { useUnsavedText } from '../../../lib/unsaved-text';
import { useOnline } from '../../../lib/use-online';
import { Dialog } from '../../../components/ui/dialog';
import { FormActions } from '../../../components/ui/form-actions';
import { createStockCount, useRelationship, type PlanningResult } from '../api/count-planning';
import { CountedBySelect, WorkCenterSelect } from './plant-people-selects';
import '../stock-count.css';

export function CreateCountDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (result: PlanningResult, draft: boolean) => void }) {
  const { t } = useTranslation();
  const { email, permissions } = useProfile();
  const online = useOnline();
  const allowed = useAllowedPlants();
  const [plant, setPlant] = useState('');
  const [storageLocation, setStorageLocation] = useState('');
  const [type, setType] = useState<'single' | 'wall_to_wall'>('wall_to_wall');
  const [conductedBy, setConductedBy] = useState('');
  const [workCenter, setWorkCenter] = useState('');
  const [deadline, setDeadline] = useState('');
  const [materials, setMaterials] = useState('');
  const [blind, setBlind] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** After a refused submit: the required fields still empty are marked (#19 item 16). */
  const [showMissing, setShowMissing] = useState(false);
  const missingPlant = showMissing && !plant;
  const missingLocation = showMissing && !storageLocation;
  const codes = materials
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((code) => code.toUpperCase());
  const missingMaterials = showMissing && type === 'single' && codes.length === 0;
  const today = dayjs().format('YYYY-MM-DD');
  const plants = useRelationship('plant', undefined, open);
  const locations = useRelationship('storage_location', plant || undefined, open);
  const deadlineAllowed = allowed.count_deadline_allowed_plants.includes(plant);
  const unsaved = open && [plant, storageLocation, conductedBy, workCenter, deadline, materials.trim()].some(Boolean);
  const release = useUnsavedText(unsaved);

  const create = useMutation({
    meta: { silent: true },
    // Offline the change goes to the outbox: the mutation must run, not wait for a connection.
    networkMode: 'always',
    mutationFn: (draft: boolean) =>
      createStockCount(email, {
        plant,
        storageLocation,
        type,
        draft,
        ...(conductedBy ? { conductedBy } : {}),
        ...(workCenter ? { workCenter } : {}),
        ...(deadline && deadlineAllowed ? { shouldBeDoneAt: deadline } : {}),
        // Material codes are upper case (as the add-material dialog sends them).
        ...(type === 'single' ? { materialCodes: codes } : {}),
        ...(blind ? { blind: true } : {}),
      }),
    onSuccess: (result, draft) => {
      setError(null);
      release();
      onCreated(result, draft);
    },
    onError: async (failure) => setError(`${t('stockCount.createFailed')} ${await errorMessage(failure)}`),
  });

  const submit = (draft: boolean) => (event?: FormEvent) => {
    event?.preventDefault();
    const form = document.getElementById('cc-plant')?.closest('form');
    if (!plant || !storageLocation || (type === 'single' && codes.length === 0)) {
      setError(t('stockCount.allFieldsMandatory'));
      setShowMissing(true);
      focusFirstInvalid(form);
      return;
    }
    setShowMissing(false);
    if (deadline && deadlineAllowed && deadline < today) {
      setError(t('stockCount.deadlinePast'));
      document.getElementById('cc-deadline')?.focus();
      return;
    }
    create.mutate(draft);
  };
  const invalid = (missing: boolean) => (missing ? { 'aria-invalid': true, 'aria-describedby': 'cc-error' } : {});

  return (
    <Dialog open={open} title={t('stockCount.createTitle')} onClose={onClose} unsaved={unsaved}>
      {/* noValidate: both buttons (send and draft) mark the missing fields the same way. */}
      <form className="form-grid" onSubmit={submit(false)} noValidate>
        {!online && <p className="notice">{t('stockCount.createOffline')}</p>}
        <label htmlFor="cc-plant">{t('stockCount.plant')}</label>
        <select
          id="cc-plant"
          value={plant}
          required
          {...invalid(missingPlant)}
          onChange={(event) => {
            setPlant(event.target.value);
            // §5: storage locations (and what depends on the plant) reset on plant change.
            setStorageLocation('');
            setWorkCenter('');
            setConductedBy('');
          }}
        >
          <option value="">{t('stockCount.choose')}</option>
          {/* Counts are used only in the allowed plants (§6): others are not offered (super managers: all). */}
          {plants.data?.plants
            .filter((p) => isSuperManager(permissions) || allowed.stock_count_allowed_plants.includes(p.code))
            .map((p) => (
              <option key={p.code} value={p.code}>
                {p.code} · {p.name}
              </option>
            ))}
        </select>
        <label htmlFor="cc-sloc">{t('stockCount.storageLocation')}</label>
        <select id="cc-sloc" value={storageLocation} required disabled={!plant} {...invalid(missingLocation)} onChange={(event) => setStorageLocation(event.target.value)}>
          <option value="">{t('stockCount.choose')}</option>
          {locations.data?.storage_locations.map((l) => (
            <option key={l.code} value={l.code}>
              {l.code} · {l.name}
            </option>
          ))}
        </select>
        <fieldset className="radio-row">
          <legend>{t('stockCount.typeLabel')}</legend>
          {(['wall_to_wall', 'single'] as const).map((value) => (
            <label key={value}>
              <input type="radio" name="cc-type" value={value} checked={type === value} onChange={() => setType(value)} /> {t(`stockCount.type.${value}`)}
            </label>
          ))}
        </fieldset>
        {type === 'single' && (
          <>
            <label htmlFor="cc-materials">{t('stockCount.materialCodes')}</label>
            <textarea id="cc-materials" rows={3} value={materials} {...invalid(missingMaterials)} onChange={(event) => setMaterials(event.target.value)} />
          </>
        )}
        <CountedBySelect
          id="cc-who"
          plant={plant || undefined}
          value={conductedBy}
          onChange={setConductedBy}
        />
        <WorkCenterSelect id="cc-wc" plant={plant || undefined} value={workCenter} onChange={setWorkCenter} />
        {deadlineAllowed && (
          <>
            <label htmlFor="cc-deadline">{t('stockCount.deadlineLabel')}</label>
            <input id="cc-deadline" type="date" min={today} value={deadline} onChange={(event) => setDeadline(event.target.value)} />
          </>
        )}
        {/* #18: counters of a blind count are not shown the book quantity. */}
        <label className="toggle">
          <input type="checkbox" checked={blind} onChange={(event) => setBlind(event.target.checked)} />
          {t('stockCount.split.blind')}
        </label>
        <FormActions error={error} errorId="cc-error" onCancel={onClose} submitLabel={t('stockCount.send')} isPending={create.isPending}>
          <button type="button" className="button" disabled={create.isPending} onClick={() => submit(true)()}>
            {t('stockCount.saveDraft')}
          </button>
        </FormActions>
      </form>
    </Dialog>
  );
}
