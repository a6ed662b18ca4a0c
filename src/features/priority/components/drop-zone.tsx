/**
 * Drag a CSV onto the zone or pick it with the app's file picker (#21: styled like the rest; the
 * keyboard and screen-reader way, the input stays a real, labelled control).
 */
import { useId, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FilePicker } from '../../../components/ui/file-picker';
import '../priority.css';

/** `fileName`: the file being checked or previewed (the zone is drawn again for each step). */
export function DropZone({ disabled, fileName, onFile }: { disabled: boolean; fileName: string | null; onFile: (file: File) => void }) {
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
      <FilePicker
        id={id}
        label={t('priority.upload.fileLabel')}
        accept=".csv,text/csv"
        file={fileName ? { name: fileName } : null}
        disabled={disabled}
        clearAfterChoice
        onChange={(file) => file && onFile(file)}
      />
    </div>
  );
}
