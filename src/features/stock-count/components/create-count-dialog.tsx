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
import type { CreateStockCountBody } from '../../../contract/stock';
import { createStockCount, useRelationship, type PlanningResult } from '../api/count-planning';
import { CountedBySelect, WorkCenterSelect } from './plant-people-selects';
import '../stock-count.css';

/** The form's fields as a create request fills them (a refused create corrected with Edit). */
function fieldsOf(initial: CreateStockCountBody | undefined) {
  return {
    plant: initial?.plant ?? '',
    storageLocation: initial?.storageLocation ?? '',
    type: initial?.type ?? 'wall_to_wall',
    conductedBy: initial?.conductedBy ?? '',
    workCenter: initial?.workCenter ?? '',
    deadline: initial?.shouldBeDoneAt ?? '',
    materials: (initial?.materialCodes ?? []).join(' '),
    blind: initial?.blind ?? false,
  };
}

/**
 * Sent with nobody to count it, a count would be listed, reminded and reported to no one (the
 * list's Send refuses such a draft, as the server's edit does): "Send to count" needs who counts,
 * or parts to count (a split at creation); a draft may wait for them (to share it among counters).
 */
export function sendsToNobody(draft: boolean, conductedBy: string, parts: CreateStockCountBody['parts']): boolean {
  return !draft && !conductedBy && !parts?.length;
}

export function CreateCountDialog({
  open,
  onClose,
  onCreated,
  initial,
  initialError,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (result: PlanningResult, draft: boolean) => void;
  /** A create the server refused (made offline): the form opens with what it sent, to correct it. */
  initial?: CreateStockCountBody;
  /** Why it was refused, shown until the next try. */
  initialError?: string;
}) {
  const { t } = useTranslation();
  const { email, permissions } = useProfile();
  const online = useOnline();
  const allowed = useAllowedPlants();
  const [start] = useState(() => fieldsOf(initial));
  const [plant, setPlant] = useState(start.plant);
  const [storageLocation, setStorageLocation] = useState(start.storageLocation);
  const [type, setType] = useState<'single' | 'wall_to_wall'>(start.type);
  const [conductedBy, setConductedBy] = useState(start.conductedBy);
  const [workCenter, setWorkCenter] = useState(start.workCenter);
  const [deadline, setDeadline] = useState(start.deadline);
  const [materials, setMaterials] = useState(start.materials);
  const [blind, setBlind] = useState(start.blind);
  const [error, setError] = useState<string | null>(initialError ?? null);
  /** After a refused submit: the required fields still empty are marked (#19 item 16). */
  const [showMissing, setShowMissing] = useState(false);
  /** After a refused "Send to count": nobody is chosen to count (a draft may wait for that). */
  const [missingCounter, setMissingCounter] = useState(false);
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
  const offeredPlants = (plants.data?.plants ?? []).filter((p) => isSuperManager(permissions) || allowed.stock_count_allowed_plants.includes(p.code));
  // Typed and not saved: what differs from how the form opened (a refused create stays in the
  // outbox until its correction is saved, so closing the form unchanged loses nothing).
  const unsaved =
    open &&
    (plant !== start.plant ||
      storageLocation !== start.storageLocation ||
      conductedBy !== start.conductedBy ||
      workCenter !== start.workCenter ||
      deadline !== start.deadline ||
      materials.trim() !== start.materials.trim());
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
        // A corrected create keeps what this form does not show (a split at creation, #18).
        ...(initial?.parts ? { parts: initial.parts, ...(initial.controlMaterialCodes ? { controlMaterialCodes: initial.controlMaterialCodes } : {}) } : {}),
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
    // Who counts is chosen, or it is saved as a draft: the field is marked, the message says which.
    if (sendsToNobody(draft, conductedBy, initial?.parts)) {
      setError(t('stockCount.whoCountsMissingCreate'));
      setMissingCounter(true);
      focusFirstInvalid(form);
      return;
    }
    setMissingCounter(false);
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
          {/* A refused create's plant shows as it was sent, even when no longer offered (the select showed "Choose" and sent it). */}
          {plant && plants.data && !offeredPlants.some((p) => p.code === plant) && <option value={plant}>{plant}</option>}
          {/* Counts are used only in the allowed plants (§6): others are not offered (super managers: all). */}
          {offeredPlants.map((p) => (
            <option key={p.code} value={p.code}>
              {p.code} · {p.name}
            </option>
          ))}
        </select>
        <label htmlFor="cc-sloc">{t('stockCount.storageLocation')}</label>
        <select id="cc-sloc" value={storageLocation} required disabled={!plant} {...invalid(missingLocation)} onChange={(event) => setStorageLocation(event.target.value)}>
          <option value="">{t('stockCount.choose')}</option>
          {storageLocation && locations.data && !locations.data.storage_locations.some((l) => l.code === storageLocation) && <option value={storageLocation}>{storageLocation}</option>}
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
          invalidOf={missingCounter && !conductedBy ? 'cc-error' : undefined}
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
