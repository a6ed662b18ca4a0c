/** A user's history from the audit log (super managers): who changed what, from what to what, when. */
import { useState } from 'react';
import { formatDate, formatDateTime } from '../../../lib/date-formats';
import { useTranslation } from 'react-i18next';
import type { AuditEntry, UserRow } from '../../../contract/users';
import { diffGrantState, type AttachmentRef, type GrantState } from '../../../domain/grant-changes';
import { Dialog } from '../../../components/ui/dialog';
import { Pager } from '../../../components/ui/pager';
import { Spinner } from '../../../components/ui/spinner';
import { useUserHistory } from '../api/get-audit-log';
import { LoadError } from '../../../components/ui/load-error';

const ACTIONS: Record<string, string> = {
  'user.approve': 'approve',
  'user.reject': 'reject',
  'user.updatePermissions': 'updatePermissions',
  'user.updateExpiration': 'updateExpiration',
  'user.remove': 'remove',
  'user.linkIdentity': 'linkIdentity',
  'notificationSettings.update': 'updateNotificationSettings',
  // The user's own ship-to-party numbers (the priority manager): added by upload, one entry a
  // number (server/priority/upload.ts), and removed (DELETE /ship_to_party_codes/{code}).
  'shipToParty.add': 'addShipToParty',
  'shipToParty.remove': 'removeShipToParty',
};

/** The ship-to-party number of a shipToParty.add (after) or .remove (before) entry. */
const managedNumber = (value: unknown): string | null => {
  const code = (value as { managedShipToPartyNumber?: unknown } | null)?.managedShipToPartyNumber;
  return typeof code === 'string' ? code : null;
};

const isGrantState = (value: unknown): value is GrantState =>
  typeof value === 'object' && value !== null && Array.isArray((value as GrantState).grants) && Array.isArray((value as GrantState).attachments ?? []);

function ChangeSummary({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  // In the reader's language: the kind's name, then the code (with its plant where it has one).
  const attachmentWords = (a: AttachmentRef) => `${t(`users.kinds.${a.kind}`, { defaultValue: a.kind })}: ${a.kind !== 'plant' && a.plant ? `${a.plant}/` : ''}${a.code}`;
  if (entry.action === 'user.updatePermissions' && isGrantState(entry.before) && isGrantState(entry.after)) {
    const before = { grants: entry.before.grants, attachments: entry.before.attachments ?? [] };
    const after = { grants: entry.after.grants, attachments: entry.after.attachments ?? [] };
    const diff = diffGrantState(before, after);
    const lines = [
      ...diff.addedGrants.map((g) => `+ ${t(`users.grants.${g}`, { defaultValue: g })}`),
      ...diff.removedGrants.map((g) => `− ${t(`users.grants.${g}`, { defaultValue: g })}`),
      ...diff.addedAttachments.map((a) => `+ ${attachmentWords(a)}`),
      ...diff.removedAttachments.map((a) => `− ${attachmentWords(a)}`),
    ];
    return (
      <ul className="change-lines">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    );
  }
  if (entry.action === 'shipToParty.add' || entry.action === 'shipToParty.remove') {
    const added = entry.action === 'shipToParty.add';
    const code = managedNumber(added ? entry.after : entry.before);
    if (code === null) return null;
    return (
      <ul className="change-lines">
        <li>{`${added ? '+' : '−'} ${attachmentWords({ kind: 'managed_ship_to_party', plant: '', code })}`}</li>
      </ul>
    );
  }
  if (entry.action === 'user.updateExpiration') {
    const date = (value: unknown) => {
      const raw = (value as { expirationDate?: string | null } | null)?.expirationDate;
      return raw ? formatDate(raw) : t('users.expiration.neverShort');
    };
    return <p>{t('users.history.fromTo', { from: date(entry.before), to: date(entry.after) })}</p>;
  }
  return null;
}

export function HistoryDialog({ user, onClose }: { user: UserRow; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const history = useUserHistory(user.uid, page);
  const data = history.data;
  return (
    <Dialog open title={t('users.history.title', { name: user.displayName })} onClose={onClose}>
      {history.isPending && <Spinner label={t('loading.listingItems')} />}
      {history.error && (
        <LoadError error={history.error} />
      )}
      {data && data.items.length === 0 && <p className="muted">{t('users.history.empty')}</p>}
      {data && data.items.length > 0 && (
        <ol className="history-list">
          {data.items.map((entry) => (
            <li key={entry.id}>
              <p>
                <span className="strong">{t(`users.history.actions.${ACTIONS[entry.action] ?? 'other'}`, { action: entry.action })}</span>
                <span className="cell-sub">{t('users.history.byAt', { who: entry.actor_email, time: formatDateTime(entry.created) })}</span>
              </p>
              <ChangeSummary entry={entry} />
            </li>
          ))}
        </ol>
      )}
      {data && data.pages > 1 && (
        <Pager
          page={data.page}
          pages={data.pages}
          hasPrev={data.has_prev}
          hasNext={data.has_next}
          onPrevious={() => setPage(page - 1)}
          onNext={() => setPage(page + 1)}
        />
      )}
      <div className="dialog-actions">
        <button type="button" className="button primary" onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
    </Dialog>
  );
}
