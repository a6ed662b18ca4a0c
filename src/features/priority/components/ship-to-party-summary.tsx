/**
 * §5: the ship-to-party numbers the user holds, counted against the maximum, or that there are
 * none. A number the user added by upload is theirs to give back (Remove, asked first); one a
 * manager gave stays the manager's to take back. The super manager, who writes every number, is
 * told it reads them all; a read-only super manager reads them all too but, with PM rights, holds
 * and gives back its own as anyone (decision 0065): both are said.
 */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { showToast } from '../../../components/ui/toast';
import { MAX_SHIP_TO_PARTY_NUMBERS } from '../../../domain/constants';
import { useRemoveShipToParty } from '../api/remove-ship-to-party';
import '../priority.css';

export function ShipToPartySummary({
  codes,
  held,
  readsAll = false,
  writesEverywhere = false,
  removable = [],
  online = true,
}: {
  /** The numbers the user reads (GET ship_to_party_codes): every number for super managers, read-only too. */
  codes: string[] | undefined;
  /** The numbers the user holds; only read where they differ from `codes` (readsAll). */
  held?: readonly string[];
  /** A super manager of either kind: `codes` is every number, not the user's own. */
  readsAll?: boolean;
  /** The super manager: writes every number, holds none of its own to count or give back. */
  writesEverywhere?: boolean;
  /** The numbers the user added by upload (and a manager did not also give). */
  removable?: readonly string[];
  online?: boolean;
}) {
  const { t } = useTranslation();
  const [removing, setRemoving] = useState<string | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  if (!codes) return null;
  if (codes.length === 0) {
    return (
      <p className="notice" role="status">
        {t('priority.noShipToParty')}
      </p>
    );
  }
  const own = writesEverywhere ? [] : readsAll ? (held ?? []) : codes;
  // Nothing of its own to count or give back: that it reads every number.
  if (own.length === 0) return <p className="muted priority-summary">{t('priority.allShipToParties', { count: codes.length })}</p>;
  return (
    <div className="priority-summary">
      {readsAll && <p className="muted">{t('priority.allShipToParties', { count: codes.length })}</p>}
      <p className="muted">{t('priority.shipToPartyCount', { count: own.length, max: MAX_SHIP_TO_PARTY_NUMBERS })}</p>
      {/* Focusable by script only: it takes the focus when a number in it is removed (below). */}
      <ul ref={listRef} className="priority-code-list" aria-label={t('priority.yourShipToParties')} tabIndex={-1}>
        {own.map((code) => (
          <li key={code} className="priority-code">
            <span>{code}</span>
            {removable.includes(code) && (
              <button
                type="button"
                className="priority-code-remove"
                aria-label={t('priority.removeShipToParty', { code })}
                title={online ? t('priority.removeShipToParty', { code }) : t('priority.removeOffline')}
                disabled={!online}
                onClick={() => setRemoving(code)}
              >
                <span aria-hidden="true">×</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      {removing !== null && (
        <RemoveDialog
          code={removing}
          online={online}
          onClose={() => setRemoving(null)}
          onRemoved={(code) => {
            setRemoving(null);
            // The number's × had the focus and went with it (the dialog gave the focus to <main>),
            // and nothing said the removal was done: it is said, and the list the user was in takes
            // the focus once the dialog has closed. None left, the list is gone: <main> keeps it,
            // and the page says there are none.
            showToast(t('priority.removed', { code }));
            requestAnimationFrame(() => listRef.current?.focus());
          }}
        />
      )}
    </div>
  );
}

function RemoveDialog({ code, online, onClose, onRemoved }: { code: string; online: boolean; onClose: () => void; onRemoved: (code: string) => void }) {
  const { t } = useTranslation();
  const remove = useRemoveShipToParty();
  return (
    <Dialog open title={t('priority.removeTitle', { code })} onClose={onClose}>
      <p>{t('priority.removeText')}</p>
      <div className="dialog-actions">
        <button type="button" className="button primary" onClick={onClose} autoFocus>
          {t('common.cancel')}
        </button>
        <button type="button" className="button danger" disabled={!online || remove.isPending} onClick={() => remove.mutate(code, { onSuccess: () => onRemoved(code) })}>
          {remove.isPending ? t('priority.removing') : t('priority.removeButton')}
        </button>
      </div>
    </Dialog>
  );
}
