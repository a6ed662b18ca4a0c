/**
 * /priority-manager (§2): per ship-to-party number the access points, priority 1 first, with a
 * text search and a country filter; the three upload dialogs for those whose roles allow them
 * (§6, the same can() the server checks). The list is mirrored: offline it shows the saved copy.
 */
import { useState, type ComponentType, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { can, isSuperManager, writesEverywhere, writesShipToParty, type Capability } from '../../../domain/permissions';
import type { PriorityUploadKind } from '../../../domain/priority';
import { PRIORITY_QUERY_MAX_LENGTH } from '../../../contract/priority';
import { useProfile } from '../../../lib/profile';
import { useOnline } from '../../../lib/use-online';
import { useIsNarrow } from '../../../lib/use-media-query';
import { Icon } from '../../../components/ui/icons';
import { MoreMenu, type MoreMenuItem } from '../../../components/ui/more-menu';
import { OfflineBanner } from '../../../components/ui/offline-banner';
import { Spinner } from '../../../components/ui/spinner';
import { usePriorities } from '../api/get-priorities';
import { useShipToPartyCodes } from '../api/get-ship-to-party-codes';
import { useUapIds } from '../api/get-uap-ids';
import { CountryFilter } from '../components/country-filter';
import { PriorityList } from '../components/priority-list';
import { ShipToPartySummary } from '../components/ship-to-party-summary';
import { UploadDialog } from '../components/upload-dialog';
import { LoadError } from '../../../components/ui/load-error';
import { uploadNeedsNumbers } from '../utils/upload-access';
import '../priority.css';

const UPLOAD_ACTIONS: { kind: PriorityUploadKind; capability: Capability }[] = [
  { kind: 'shipToParty', capability: 'priority.write' },
  { kind: 'add', capability: 'priority.uploadAdd' },
  { kind: 'disable', capability: 'priority.uploadDisable' },
];

/**
 * `grantAccess`: "Give access" (users' feature, handed in by the route table) for those who give
 * PM rights to others (UM_PM_grant_read / _write, §6).
 */
export default function PriorityManagerPage({ grantAccess: GrantAccess }: { grantAccess?: ComponentType<{ render?: (open: () => void) => ReactNode }> } = {}) {
  const { t } = useTranslation();
  const profile = useProfile();
  const online = useOnline();
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [countries, setCountries] = useState<string[]>([]);
  const [openUpload, setOpenUpload] = useState<PriorityUploadKind | null>(null);
  const list = usePriorities(profile.email, { query, countries });
  const codes = useShipToPartyCodes();
  const uapIds = useUapIds(codes.data !== undefined && codes.data.length > 0);
  const actions = UPLOAD_ACTIONS.filter((action) => can(profile.permissions, action.capability));
  const grants = GrantAccess !== undefined && profile.permissions.some((grant) => grant === 'UM_PM_grant_read' || grant === 'UM_PM_grant_write');
  const narrow = useIsNarrow();
  const heldCodes = [...profile.shipToPartyNumbers, ...profile.managedShipToPartyNumbers];
  // Priority uploads without a number held can only fail row by row: off, with the reason under them.
  const blocked = (kind: PriorityUploadKind) => uploadNeedsNumbers(kind, profile.permissions, heldCodes);
  const anyBlocked = actions.some(({ kind }) => blocked(kind));
  const blockedNote = anyBlocked ? 'priority-upload-needs-numbers' : undefined;
  // On a phone the upload in sight is one that can work: adding numbers, when priorities cannot be uploaded yet.
  const primaryAction = actions.find((action) => action.kind === 'add' && !blocked(action.kind)) ?? actions.find((action) => !blocked(action.kind)) ?? actions[0];
  const otherActions = actions.filter((action) => action !== primaryAction && !blocked(action.kind));
  /** The phone's "⋯" menu: the other uploads that can work, and what is added to them; none when empty. */
  const moreMenu = (added: MoreMenuItem[] = []) => {
    const items = [...otherActions.map(({ kind }) => ({ key: kind, label: t(`priority.upload.${kind}.button`), onSelect: () => setOpenUpload(kind) })), ...added];
    return items.length > 0 ? <MoreMenu label={t('priority.moreActions')} disabled={!online} items={items} /> : null;
  };
  const grantButton = (openGrant: () => void) => (
    <button type="button" className="button" disabled={!online} onClick={openGrant}>
      <Icon name="users" size={20} />
      {t('users.grantAccess.button')}
    </button>
  );
  /**
   * The head's actions, `openGrant` when the user may give access. One GrantAccess holds both
   * layouts: its dialog (and what was typed in it) outlives a phone or tablet turned across the
   * breakpoint, where two instances unmounted the open one.
   */
  const headActions = (openGrant: (() => void) | null) => (
    <>
      {(actions.length > 0 || openGrant) && !narrow && (
        <div className="button-row start">
          {actions.map(({ kind }) => (
            <button
              key={kind}
              type="button"
              className="button"
              disabled={!online || blocked(kind)}
              aria-describedby={blocked(kind) ? blockedNote : undefined}
              onClick={() => setOpenUpload(kind)}
            >
              {t(`priority.upload.${kind}.button`)}
            </button>
          ))}
          {openGrant && grantButton(openGrant)}
        </div>
      )}
      {/* #21: on a phone one compact toolbar — the upload of priorities in sight, the others in "⋯". */}
      {narrow && (primaryAction || openGrant) && (
        <div className="priority-toolbar">
          {primaryAction && (
            <button
              type="button"
              className="button"
              disabled={!online || blocked(primaryAction.kind)}
              aria-describedby={blocked(primaryAction.kind) ? blockedNote : undefined}
              onClick={() => setOpenUpload(primaryAction.kind)}
            >
              <Icon name="upload" size={20} />
              {t(`priority.upload.${primaryAction.kind}.button`)}
            </button>
          )}
          {/* With an upload in sight, "Give access" joins the "⋯" menu: three buttons do not fit a phone's row. */}
          {openGrant ? (primaryAction ? moreMenu([{ key: 'grant-access', label: t('users.grantAccess.button'), onSelect: openGrant }]) : grantButton(openGrant)) : moreMenu()}
        </div>
      )}
    </>
  );
  const search = (event: FormEvent) => {
    event.preventDefault();
    setQuery(typed.trim());
  };
  const items = list.data?.items;
  // Offline too: an editor open when the connection goes keeps what was typed; only its Save waits.
  const writes = can(profile.permissions, 'priority.write');
  const hasNoShipToParty = codes.data?.length === 0;

  return (
    <section className="page">
      <div className="page-head">
        <h1 className="page-title route-title">{t('routes.priorityManager')}</h1>
        {grants && GrantAccess ? <GrantAccess render={headActions} /> : headActions(null)}
      </div>
      {blockedNote && (
        <p id={blockedNote} className="muted small">
          {t('priority.upload.needsNumbers')}
        </p>
      )}
      {(list.isOfflineCopy || !online) && <OfflineBanner savedAt={list.savedAt} />}
      <ShipToPartySummary
        codes={codes.data}
        // Super managers read every number; only the super manager writes them all. A read-only one
        // with PM rights holds, sees and gives back its own numbers as any PM writer (decision 0065).
        readsAll={isSuperManager(profile.permissions)}
        writesEverywhere={writesEverywhere(profile.permissions)}
        held={[...new Set(heldCodes)].sort()}
        // Added by upload, and not also given by a manager: the user's to give back.
        removable={writes ? profile.managedShipToPartyNumbers.filter((code) => !profile.shipToPartyNumbers.includes(code)) : []}
        online={online}
      />

      {!hasNoShipToParty && (
        <div className="priority-filters">
          <form className="priority-search" role="search" onSubmit={search}>
            <label className="field-label" htmlFor="priority-query">
              {t('priority.search')}
            </label>
            <div className="priority-inline">
              <input
                id="priority-query"
                type="search"
                list="priority-access-points"
                value={typed}
                // The server's limit (prioritiesQuery): longer was refused with an English 400.
                maxLength={PRIORITY_QUERY_MAX_LENGTH}
                placeholder={t('priority.searchPlaceholder')}
                onChange={(event) => setTyped(event.target.value)}
              />
              <datalist id="priority-access-points">
                {(uapIds.data ?? []).map((id) => (
                  <option key={id} value={id} />
                ))}
              </datalist>
              {/* A magnifier on a phone: the field keeps its example whole ("Número, nome ou localidade"). */}
              <button type="submit" className="button icon-on-phone" aria-label={t('common.search')}>
                <Icon name="search" size={22} />
                <span className="button-label">{t('common.search')}</span>
              </button>
            </div>
          </form>
          <CountryFilter selected={countries} onChange={setCountries} />
        </div>
      )}

      {list.isPending && <Spinner label={t('loading.listingItems')} />}
      {list.error && (
        <LoadError error={list.error} />
      )}
      {items && items.length === 0 && !hasNoShipToParty && <p className="muted">{t('common.noItems')}</p>}
      {items && items.length > 0 && (
        // The numbers it may change, each its own card's: a read-only super manager reads every
        // number and writes only those it holds (decision 0065; the server answers 404 for others).
        // The server says so per entry (writableByYou, read per request); a service that does not
        // leaves it to the profile's numbers.
        <div className="priority-list">
          {items.map((entry) => (
            <PriorityList
              key={entry.shipToPartyCode}
              items={[entry]}
              canWrite={writes && (entry.writableByYou ?? writesShipToParty(profile.permissions, heldCodes, entry.shipToPartyCode))}
              online={online}
            />
          ))}
        </div>
      )}
      {items && list.data?.has_more && (
        <p className="muted end-of-results" role="status">
          {t('priority.firstOnly', { count: items.length })}
        </p>
      )}

      {actions.map(({ kind }) => (
        <UploadDialog key={kind} kind={kind} open={openUpload === kind} onClose={() => setOpenUpload(null)} />
      ))}
    </section>
  );
}
