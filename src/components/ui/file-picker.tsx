/**
 * A file field that looks like the rest of the app (#21): a real <input type="file"> (kept for
 * keyboard, screen readers and tests), visually replaced by a button and the chosen file's name.
 */
import { useTranslation } from 'react-i18next';
import { Icon } from './icons';

export function FilePicker({
  id,
  label,
  accept,
  describedBy,
  file,
  onChange,
}: {
  id: string;
  label: string;
  accept?: string;
  describedBy?: string;
  file: File | null;
  onChange: (file: File | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="file-picker">
      <input
        id={id}
        type="file"
        className="file-picker-input"
        accept={accept}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.files?.[0] ?? null)}
      />
      <label htmlFor={id} className="button">
        <Icon name="upload" size={20} />
        {label}
      </label>
      <span className="file-picker-name" aria-hidden="true">
        {file ? file.name : t('common.noFileChosen')}
      </span>
    </div>
  );
}
