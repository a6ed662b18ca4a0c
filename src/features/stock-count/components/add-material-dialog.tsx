/**
 * Add a material to the count: search the catalogue by code or description (answers are saved
 * for offline); where the catalogue cannot answer (offline with nothing saved), an exact code can
 * still be queued; the server checks it when the line is sent.
 */
import { lazy, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { Optional } from '../../../components/optional';
import { useOnline } from '../../../lib/use-online';
import { useMaterialSearch } from '../api/search-materials';
import { isMaterialCodeLike } from '../../../domain/material-code';
import '../stock-count.css';

/** Lazy (#17): the scanner never weighs on the count screen's own chunk. */
const ScanButton = lazy(() => import('../../../components/scan/scan-button'));

export interface NewMaterial {
  material_code: string;
  material_description_english: string;
  unit: string;
}

export function AddMaterialDialog({
  open,
  email,
  present,
  initialTerm = '',
  onAdd,
  onClose,
}: {
  open: boolean;
  email: string;
  present: Set<string>;
  /** A code to look up as the dialog opens (a scanned material that is not on the count). */
  initialTerm?: string;
  onAdd: (material: NewMaterial) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const online = useOnline();
  const [term, setTerm] = useState(initialTerm);
  useEffect(() => {
    if (open && initialTerm) setTerm(initialTerm);
  }, [open, initialTerm]);
  const search = useMaterialSearch(email, term.trim());
  const items = search.data?.my_material_items ?? [];
  const code = term.trim().toUpperCase();
  const add = (material: NewMaterial) => {
    onAdd(material);
    setTerm('');
  };

  return (
    <Dialog open={open} title={t('stockCount.addTitle')} onClose={onClose}>
      <label className="field-label" htmlFor="add-material-search">
        {t('stockCount.addSearchLabel')}
      </label>
      <input
        id="add-material-search"
        type="search"
        autoComplete="off"
        value={term}
        onChange={(event) => setTerm(event.target.value)}
        placeholder={t('stockCount.addSearchPlaceholder')}
      />
      <Optional>
        <ScanButton
          className="button small"
          title={t('stockCount.addTitle')}
          onScan={(raw) => {
            void import('../../../domain/scan-codes').then(({ readScan }) => {
              const reading = readScan(raw);
              if (reading.kind === 'material') setTerm(reading.candidates[0]!);
            });
          }}
        />
      </Optional>
      <ul className="pick-list" aria-label={t('stockCount.addResults')}>
        {items.map((item) => (
          <li key={item.material_code}>
            <button type="button" className="pick" disabled={present.has(item.material_code)} onClick={() => add(item)}>
              <span className="material-code">{item.material_code}</span>
              <span>{item.material_description_english}</span>
              <span className="muted small">{present.has(item.material_code) ? t('stockCount.alreadyInCount') : item.unit}</span>
            </button>
          </li>
        ))}
      </ul>
      {term.trim().length >= 2 && !search.isFetching && items.length === 0 && (
        <p className="muted">{online ? t('stockCount.noMaterialFound') : t('stockCount.addOfflineHint')}</p>
      )}
      {/* Only a code-like term the catalogue has no exact match for (#19 item 25: not "DOOR" beside door lines),
          and only when the catalogue could not say (offline, its copy, more matches than listed): a code
          the server's whole answer lacks is refused when the line is sent, and the count kept a line it never had. */}
      {isMaterialCodeLike(code) && !search.isFetching && !search.data?.complete && !present.has(code) && !items.some((item) => item.material_code === code) && (
        <button
          type="button"
          className="button"
          // The unit is not invented (a 'PC' counted as pieces may be metres): unknown until the server takes the line.
          onClick={() => add({ material_code: code, material_description_english: t('stockCount.addedByCode'), unit: '' })}
        >
          {t('stockCount.addByCode', { code })}
        </button>
      )}
      <div className="dialog-actions">
        <button type="button" className="button ghost" onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
    </Dialog>
  );
}
