/**
 * Add a material to the count: search the catalogue by code or description (answers are saved
 * for offline); offline with nothing saved, an exact code can still be queued; the server
 * checks it when the line is sent.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { useOnline } from '../../../lib/use-online';
import { useMaterialSearch } from '../api/search-materials';

export interface NewMaterial {
  material_code: string;
  material_description_english: string;
  unit: string;
}

export function AddMaterialDialog({
  open,
  email,
  present,
  onAdd,
  onClose,
}: {
  open: boolean;
  email: string;
  present: Set<string>;
  onAdd: (material: NewMaterial) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const online = useOnline();
  const [term, setTerm] = useState('');
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
      {code.length >= 2 && !present.has(code) && !items.some((item) => item.material_code === code) && (
        <button
          type="button"
          className="button"
          onClick={() => add({ material_code: code, material_description_english: t('stockCount.addedByCode'), unit: 'PC' })}
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
