/**
 * Drag a CSV onto the zone or pick it with the file input (the keyboard and screen-reader way;
 * the input stays a real, labelled control).
 */
import { useId, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import '../priority.css';

export function DropZone({ disabled, onFile }: { disabled: boolean; onFile: (file: File) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [isDragging, setDragging] = useState(false);
  const over = (event: DragEvent) => {
    event.preventDefault();
    if (!disabled) setDragging(true);
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !disabled) onFile(file);
  };
  return (
    <div
      className={`priority-drop${isDragging ? ' is-dragging' : ''}`}
      onDragEnter={over}
      onDragOver={over}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
    >
      <p>{t('priority.upload.dropHere')}</p>
      <label className="field-label" htmlFor={id}>
        {t('priority.upload.fileLabel')}
      </label>
      <input
        id={id}
        type="file"
        accept=".csv,text/csv"
        disabled={disabled}
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Cleared so choosing the same file again (after fixing it) is a change too.
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
    </div>
  );
}
