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
  disabled = false,
  clearAfterChoice = false,
}: {
  id: string;
  label: string;
  accept?: string;
  describedBy?: string;
  /** The chosen file (or its name), shown beside the button. */
  file: { name: string } | null;
  onChange: (file: File | null) => void;
  disabled?: boolean;
  /** Empty the field after each choice, so choosing the same file again (fixed) is a change too. */
  clearAfterChoice?: boolean;
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
        disabled={disabled}
        onChange={(event) => {
          const chosen = event.target.files?.[0] ?? null;
          if (clearAfterChoice) event.target.value = '';
          onChange(chosen);
        }}
      />
      <label htmlFor={id} className={`button${disabled ? ' is-disabled' : ''}`} aria-disabled={disabled || undefined}>
        <Icon name="upload" size={20} />
        {label}
      </label>
      <span className="file-picker-name" aria-hidden="true">
        {file ? file.name : t('common.noFileChosen')}
      </span>
    </div>
  );
}
