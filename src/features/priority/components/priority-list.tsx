/** Per ship-to-party number its access points, priority 1 first (§2), with their addresses. */
import { useTranslation } from 'react-i18next';
import type { PriorityEntry } from '../../../contract/priority';

function ShipToPartyCard({ entry }: { entry: PriorityEntry }) {
  const { t } = useTranslation();
  const headingId = `stp-${entry.shipToPartyCode}`;
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
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function PriorityList({ items }: { items: PriorityEntry[] }) {
  return (
    <div className="priority-list">
      {items.map((entry) => (
        <ShipToPartyCard key={entry.shipToPartyCode} entry={entry} />
      ))}
    </div>
  );
}
