/**
 * Edit a user's roles, permissions and attachments (§6). Everything is shown; only what the
 * caller may change is enabled (the server's `editable` scope, the same rule it enforces), and
 * the server's refusal, naming what is not allowed, is shown as it comes.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Attachment, EditScope, GrantOptions, UserRow } from '../../../contract/users';
import { attachmentKey, attachmentsLeavingWith, mayChangeShipToParties, PER_PLANT_KINDS, userPlantsInScope, type GrantState } from '../../../domain/grant-changes';
import { ATTACHMENT_HOLDERS, ATTACHMENT_KINDS, GRANTS, isGrant, mayHoldAttachment, type AttachmentKind } from '../../../domain/permissions';
import { errorMessage } from '../../../lib/api-client';
import { useUnsavedText } from '../../../lib/unsaved-text';
import { LoadError } from '../../../components/ui/load-error';
import { Dialog } from '../../../components/ui/dialog';
import { FormActions } from '../../../components/ui/form-actions';
import { Spinner } from '../../../components/ui/spinner';
import { useGrantOptions, usePlantOptions, useUserPermissions } from '../api/get-user-permissions';
import { useUpdatePermissions } from '../api/change-user';
// Its own styles: the dialog opens on the users screen and on the priority manager ("Give access").
import '../users.css';

const mayEditKind = (scope: EditScope, kind: AttachmentKind) => scope.attachments.includes(kind);
const mayEditAttachment = (scope: EditScope, a: Attachment) =>
  mayEditKind(scope, a.kind) && (!scope.plantScopedAttachments.includes(a.kind) || scope.plants.includes(a.plant));

/** Whether the form's grants or attachments differ from those it opened with (order aside): then Escape or Back asks first. */
export function permissionsChanged(initial: GrantState, current: GrantState): boolean {
  const same = (a: readonly string[], b: readonly string[]) => {
    const left = new Set(a);
    const right = new Set(b);
    return left.size === right.size && [...left].every((x) => right.has(x));
  };
  return !same(initial.grants, current.grants) || !same(initial.attachments.map(attachmentKey), current.attachments.map(attachmentKey));
}

function attachmentLabel(a: Attachment): string {
  if (a.kind === 'plant' || a.plant === '') return a.code;
  return `${a.plant} / ${a.code}`;
}

export function PermissionsDialog({ user, onClose, onSaved }: { user: UserRow; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const current = useUserPermissions(user.uid);
  const options = useGrantOptions();
  const ready = current.data && options.data;
  // The form below says whether it holds changes: Escape or a phone's Back asks before dropping them.
  const [unsaved, setUnsaved] = useState(false);
  return (
    <Dialog open title={t('users.permissions.title', { name: user.displayName })} onClose={onClose} unsaved={unsaved}>
      {!ready && !current.error && !options.error && <Spinner label={t('loading.listingItems')} />}
      {(current.error ?? options.error) && <LoadError error={current.error ?? options.error} />}
      {ready && (
        <PermissionsForm
          key={current.dataUpdatedAt}
          uid={user.uid}
          version={current.data.version}
          grants={current.data.grants}
          attachments={current.data.attachments}
          scope={current.data.editable}
          options={options.data}
          onClose={onClose}
          onSaved={onSaved}
          onUnsavedChange={setUnsaved}
        />
      )}
    </Dialog>
  );
}

function PermissionsForm({
  uid,
  grants: initialGrants,
  attachments: initialAttachments,
  scope,
  options,
  onClose,
  onSaved,
  onUnsavedChange,
  version,
}: {
  uid: string;
  version: string | null;
  grants: string[];
  attachments: Attachment[];
  scope: EditScope;
  options: GrantOptions;
  onClose: () => void;
  onSaved: () => void;
  onUnsavedChange: (unsaved: boolean) => void;
}) {
  const { t } = useTranslation();
  const [grants, setGrants] = useState(() => new Set(initialGrants));
  const [attachments, setAttachments] = useState(initialAttachments);
  const [error, setError] = useState<string | null>(null);
  const save = useUpdatePermissions(uid);
  const readOnly = scope.grants.length === 0 && scope.attachments.length === 0;
  const grantList = [...grants];
  const unsaved = permissionsChanged({ grants: initialGrants, attachments: initialAttachments }, { grants: grantList, attachments });
  const release = useUnsavedText(unsaved);
  useEffect(() => onUnsavedChange(unsaved), [unsaved, onUnsavedChange]);
  // Roles a stock admin gives are global: given or taken only for a user all of whose plants
  // (before and after this change) are the editor's, or the save is refused (refusedChanges).
  const initialPlants = initialAttachments.filter((a) => a.kind === 'plant').map((a) => a.code);
  const plantsInScope = userPlantsInScope(scope, initialPlants, { grants: grantList, attachments });
  const lockedByPlants = plantsInScope ? [] : scope.plantScopedGrants;
  // One who gives PM read only does not change the ship-to-party numbers of a priority writer.
  const shipToPartiesOpen = mayChangeShipToParties(scope, initialGrants, grantList);
  const editsKind = (kind: AttachmentKind) => mayEditKind(scope, kind) && (kind !== 'ship_to_party' || shipToPartiesOpen);
  // What leaves with a role taken away (the server drops it in the same change): shown before saving.
  const leaving = new Set(
    attachmentsLeavingWith({ grants: initialGrants, attachments: initialAttachments }, { grants: grantList, attachments }).map(attachmentKey),
  );

  const toggle = (grant: string, on: boolean) => {
    const next = new Set(grants);
    if (on) next.add(grant);
    else next.delete(grant);
    setGrants(next);
  };
  const add = (a: Attachment) => {
    if (attachments.some((x) => attachmentKey(x) === attachmentKey(a))) return;
    setAttachments([...attachments, a]);
  };
  const remove = (a: Attachment) => setAttachments(attachments.filter((x) => attachmentKey(x) !== attachmentKey(a)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    // The saved permissions refresh this form (its key), which unmounts the observer a
    // mutate-level onSuccess would need: the promise still resolves, so the dialog closes (#19 item 20).
    save
      .mutateAsync({ body: { grants: grantList.filter(isGrant), attachments }, version })
      .then(
        () => {
          // Saved: closing is not dropping changes, and nothing is asked.
          release();
          onSaved();
        },
        async (failure: unknown) => setError(await errorMessage(failure)),
      );
  };

  return (
    <form className="permissions-form" onSubmit={submit}>
      {readOnly && <p className="notice">{t('users.permissions.readOnly')}</p>}
      <fieldset className="grant-grid">
        <legend className="section-title">{t('users.permissions.grants')}</legend>
        {GRANTS.map((grant) => {
          const editable = scope.grants.includes(grant) && !lockedByPlants.includes(grant);
          return (
            <label key={grant} className={`check-row${editable ? '' : ' locked'}`}>
              <input type="checkbox" checked={grants.has(grant)} disabled={!editable} onChange={(event) => toggle(grant, event.target.checked)} />
              <span>{t(`users.grants.${grant}`)}</span>
            </label>
          );
        })}
        {lockedByPlants.length > 0 && (
          <p className="field-hint">{t('users.permissions.plantScopedLocked', { roles: lockedByPlants.map((g) => t(`users.grants.${g}`)).join(', ') })}</p>
        )}
      </fieldset>
      <h3 className="section-title">{t('users.permissions.attachments')}</h3>
      {ATTACHMENT_KINDS.map((kind) => {
        const held = attachments.filter((a) => a.kind === kind);
        const holdable = mayHoldAttachment(grantList, kind);
        const holders = ATTACHMENT_HOLDERS[kind];
        if (held.length === 0 && !editsKind(kind)) return null;
        return (
          <section key={kind} className="attachment-kind" aria-labelledby={`kind-${kind}`}>
            <h4 id={`kind-${kind}`}>{t(`users.kinds.${kind}`)}</h4>
            {held.length === 0 ? (
              <p className="muted small">{t('users.permissions.none')}</p>
            ) : (
              <ul className="attachment-chips">
                {held.map((a) => (
                  <li key={attachmentKey(a)} className={`attachment-chip${leaving.has(attachmentKey(a)) ? ' leaving' : ''}`}>
                    <span>{attachmentLabel(a)}</span>
                    {mayEditAttachment(scope, a) && editsKind(kind) && (
                      <button
                        type="button"
                        className="chip-remove"
                        aria-label={t('users.permissions.removeAttachment', { what: `${t(`users.kinds.${kind}`)} ${attachmentLabel(a)}` })}
                        onClick={() => remove(a)}
                      >
                        ×
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {held.some((a) => leaving.has(attachmentKey(a))) ? (
              <p className="field-hint" role="status">
                {t('users.permissions.leaving')}
              </p>
            ) : (
              !holdable &&
              holders !== 'any' &&
              (held.length > 0 || editsKind(kind)) && (
              <p className="field-hint">
                {t('users.permissions.onlyFor', { roles: holders.map((g) => t(`users.grants.${g}`)).join(', ') })}
              </p>
              )
            )}
            {editsKind(kind) && holdable && <AttachmentAdder kind={kind} scope={scope} options={options} onAdd={add} />}
          </section>
        );
      })}
      <FormActions
        error={error}
        onCancel={onClose}
        cancelLabel={readOnly ? t('common.close') : undefined}
        submitLabel={readOnly ? undefined : t('users.save')}
        isPending={save.isPending}
      />
    </form>
  );
}

function AttachmentAdder({ kind, scope, options, onAdd }: { kind: AttachmentKind; scope: EditScope; options: GrantOptions; onAdd: (a: Attachment) => void }) {
  const { t } = useTranslation();
  const perPlant = PER_PLANT_KINDS.includes(kind);
  const plants = scope.plantScopedAttachments.includes(kind) ? options.plants.filter((p) => scope.plants.includes(p.code)) : options.plants;
  const [plant, setPlant] = useState('');
  const [code, setCode] = useState('');
  const needsCode = kind !== 'plant';
  const plantOptions = usePlantOptions(perPlant && needsCode ? plant : '');
  const codes =
    kind === 'planner_group'
      ? plantOptions.data?.plannerGroups
      : kind === 'work_center'
        ? plantOptions.data?.workCenters
        : kind === 'storage_location'
          ? plantOptions.data?.storageLocations
          : perPlant
            ? []
            : options.shipToParties;
  const add = () => {
    if (kind === 'plant') {
      if (plant) onAdd({ kind, plant, code: plant });
    } else if (code && (!perPlant || plant)) {
      onAdd({ kind, plant: perPlant ? plant : '', code });
    }
    setCode('');
  };
  const id = `add-${kind}`;
  return (
    <div className="attachment-adder">
      {perPlant && (
        <>
          <label htmlFor={`${id}-plant`} className="visually-hidden">
            {t('users.permissions.choosePlant', { kind: t(`users.kinds.${kind}`) })}
          </label>
          <select id={`${id}-plant`} value={plant} onChange={(event) => { setPlant(event.target.value); setCode(''); }}>
            <option value="">{t('users.permissions.plantPlaceholder')}</option>
            {plants.map((p) => (
              <option key={p.code} value={p.code}>
                {p.code} · {p.name}
              </option>
            ))}
          </select>
        </>
      )}
      {needsCode && (
        <>
          <label htmlFor={`${id}-code`} className="visually-hidden">
            {t('users.permissions.chooseCode', { kind: t(`users.kinds.${kind}`) })}
          </label>
          <select id={`${id}-code`} value={code} disabled={perPlant && !plant} onChange={(event) => setCode(event.target.value)}>
            <option value="">{t('users.permissions.codePlaceholder')}</option>
            {(codes ?? []).map((c) => (
              <option key={c.code} value={c.code}>
                {c.code} · {c.name}
              </option>
            ))}
          </select>
        </>
      )}
      {/* Up to six Add buttons in one dialog: each names its kind to a screen reader, after the visible word. */}
      <button
        type="button"
        className="button small"
        aria-label={`${t('users.permissions.add')} – ${t(`users.kinds.${kind}`)}`}
        onClick={add}
        disabled={needsCode ? !code : !plant}
      >
        {t('users.permissions.add')}
      </button>
    </div>
  );
}
