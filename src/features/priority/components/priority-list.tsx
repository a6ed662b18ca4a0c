/** Per ship-to-party number its access points, priority 1 first (§2), with their addresses. */
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PriorityEntry, UapInfo } from '../../../contract/priority';
import { useUnsavedText } from '../../../lib/unsaved-text';
import { isPriorityChangedMeanwhile, priorityEditBody, useUpdatePriority } from '../api/update-priority';
import '../priority.css';

/**
 * PM_write: change the priority (1–99) or turn the access point on or off, in the row. Offline it
 * stays open with what was typed (it used to vanish with the connection) and only Save is off.
 * A save says what the editor was opened with (decision 0065): when someone else changed the row
 * since, nothing is saved (the message says so), the editor closes and the row shows it as it is now.
 */
export function PriorityEditor({ shipToPartyCode, info, online, onDone }: { shipToPartyCode: string; info: UapInfo; online: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  // What the user was shown when opening the editor; the list read again meanwhile does not move it.
  const [opened] = useState(() => ({ priority: info.priority, isEnabled: info.isEnabled }));
  const [priority, setPriority] = useState(String(opened.priority));
  const [enabled, setEnabled] = useState(opened.isEnabled);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdatePriority();
  useUnsavedText(priority !== String(opened.priority) || enabled !== opened.isEnabled);
  const offlineId = `offline-${shipToPartyCode}-${info.accessPointId}`;
  const save = (event: FormEvent) => {
    event.preventDefault();
    // A range error of an earlier attempt is out of date at each new one.
    setError(null);
    if (!online) return;
    const value = Number(priority);
    if (!Number.isInteger(value) || value < 1 || value > 99) return setError(t('priority.rangeError'));
    update.mutate(priorityEditBody(shipToPartyCode, info.accessPointId, { priority: value, isEnabled: enabled }, opened), {
      onSuccess: onDone,
      // Changed by someone else: what was typed was decided on a row that is no more. The list is
      // read again (useUpdatePriority) and the editor opened again starts from the row as it is.
      onError: async (failure) => {
        if (await isPriorityChangedMeanwhile(failure)) onDone();
      },
    });
  };
  return (
    <form className="priority-editor" onSubmit={save} noValidate>
      <label>
        <span className="visually-hidden">{t('priority.newPriority', { name: info.name })}</span>
        {/* The editor replaces the Change button: the focus goes into it (it fell to the page). */}
        <input type="number" min={1} max={99} value={priority} autoFocus onChange={(event) => setPriority(event.target.value)} />
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} /> {t('priority.enabled')}
      </label>
      <button type="submit" className="button small primary" disabled={update.isPending || !online} aria-describedby={online ? undefined : offlineId}>
        {t('priority.save')}
      </button>
      <button type="button" className="button small ghost" onClick={onDone}>
        {t('common.cancel')}
      </button>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
      {!online && (
        <span id={offlineId} className="field-error">
          {t('priority.editOffline')}
        </span>
      )}
    </form>
  );
}

function ShipToPartyCard({ entry, canWrite, online }: { entry: PriorityEntry; canWrite: boolean; online: boolean }) {
  const [editing, setEditing] = useState<string | null>(null);
  // The row whose editor just closed: its Change button takes the focus back, also after the list
  // has been read again and the row moved to its new priority (moving a focused node drops focus).
  const [returnTo, setReturnTo] = useState<string | null>(null);
  const { t } = useTranslation();
  const headingId = `stp-${entry.shipToPartyCode}`;
  useEffect(() => {
    if (!returnTo || (document.activeElement && document.activeElement !== document.body)) return;
    document.getElementById(`change-${entry.shipToPartyCode}-${returnTo}`)?.focus();
  }, [returnTo, editing, entry.uapinfos, entry.shipToPartyCode]);
  return (
    <section className="panel priority-card" aria-labelledby={headingId}>
      <h2 id={headingId} className="section-title">
        {entry.shipToPartyCode} <span className="muted">· {entry.shipToPartyName}</span>
      </h2>
      <p className="muted small">{entry.shipToPartyAddress}</p>
      {entry.uapinfos.length === 0 ? (
        <p className="muted">{t('priority.noAccessPoints')}</p>
      ) : (
        <div className="table-wrap">
          <table className="data-table priority-table">
            <thead>
              <tr>
                <th scope="col">{t('priority.col.priority')}</th>
                <th scope="col">{t('priority.col.accessPoint')}</th>
                <th scope="col">{t('priority.col.address')}</th>
                <th scope="col">{t('priority.col.state')}</th>
                {canWrite && (
                  <th scope="col">
                    <span className="visually-hidden">{t('priority.change')}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {entry.uapinfos.map((info) => (
                <tr key={info.accessPointId} className={info.isEnabled ? undefined : 'is-disabled'}>
                  <td className="num strong" data-label={t('priority.col.priority')}>
                    {info.priority}
                  </td>
                  <td>
                    {info.name}
                    <span className="cell-sub">{info.accessPointId}</span>
                  </td>
                  <td>
                    {info.address}
                    <span className="cell-sub">
                      {info.postalCode} {info.city}, {info.country}
                    </span>
                  </td>
                  <td>{info.isEnabled ? t('priority.enabled') : t('priority.disabled')}</td>
                  {canWrite && (
                    <td>
                      {editing === info.accessPointId ? (
                        <PriorityEditor
                          shipToPartyCode={entry.shipToPartyCode}
                          info={info}
                          online={online}
                          onDone={() => {
                            setEditing(null);
                            setReturnTo(info.accessPointId);
                          }}
                        />
                      ) : (
                        <button
                          id={`change-${entry.shipToPartyCode}-${info.accessPointId}`}
                          type="button"
                          className="button small"
                          aria-label={t('priority.changeFor', { name: info.name })}
                          onClick={() => {
                            setReturnTo(null);
                            setEditing(info.accessPointId);
                          }}
                        >
                          {t('priority.change')}
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** `canWrite`: the user may change these numbers' priorities, online or not; `online`: a save can go now. */
export function PriorityList({ items, canWrite, online }: { items: PriorityEntry[]; canWrite: boolean; online: boolean }) {
  return (
    <div className="priority-list">
      {items.map((entry) => (
        <ShipToPartyCard key={entry.shipToPartyCode} entry={entry} canWrite={canWrite} online={online} />
      ))}
    </div>
  );
}
