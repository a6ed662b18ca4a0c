/** The rows the server read from the file and what applying does to each (dry run or result). */
import { useTranslation } from 'react-i18next';
import type { UploadResult } from '../../../contract/priority';
import '../priority.css';

const SHOWN = 200;

export function UploadPreview({ result }: { result: UploadResult }) {
  const { t } = useTranslation();
  const withPriority = result.kind === 'add';
  const withAccessPoint = result.kind !== 'shipToParty';
  return (
    <section aria-labelledby="priority-preview-title">
      <h3 id="priority-preview-title" className="section-title">
        {t('priority.upload.previewTitle')}
      </h3>
      <div className="table-wrap priority-preview">
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t('priority.upload.col.line')}</th>
              <th scope="col">{t('priority.upload.col.shipToParty')}</th>
              {withAccessPoint && <th scope="col">{t('priority.upload.col.accessPoint')}</th>}
              {/* What is stored now, beside what the file sets: old → new before applying. */}
              {withAccessPoint && <th scope="col">{t('priority.upload.col.now')}</th>}
              {withPriority && <th scope="col">{t('priority.upload.col.priority')}</th>}
              {result.kind === 'disable' && <th scope="col">{t('priority.upload.col.action')}</th>}
              <th scope="col">{t('priority.upload.col.change')}</th>
            </tr>
          </thead>
          <tbody>
            {result.rows.slice(0, SHOWN).map((row) => (
              <tr key={row.line} className={row.change === null ? 'has-error' : undefined}>
                <td className="num">{row.line}</td>
                <td>{row.shipToPartyCode}</td>
                {withAccessPoint && <td>{row.accessPointId}</td>}
                {withAccessPoint && (
                  <td className="num">{row.before ? (row.before.isEnabled ? row.before.priority : t('priority.upload.nowDisabled', { priority: row.before.priority })) : '–'}</td>
                )}
                {withPriority && <td className="num">{row.priority ?? '–'}</td>}
                {result.kind === 'disable' && <td>{row.action ? t(`priority.upload.action.${row.action}`) : '–'}</td>}
                <td>{t(`priority.upload.change.${row.change ?? 'error'}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {result.rows.length > SHOWN && <p className="muted small">{t('priority.upload.previewMore', { shown: SHOWN, total: result.rows.length })}</p>}
    </section>
  );
}
