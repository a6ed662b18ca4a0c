/** The "counted by" and "work center" choices of a plant, shared by the create and edit forms. */
import { useTranslation } from 'react-i18next';
import { isSuperManager } from '../../../domain/permissions';
import { useProfile } from '../../../lib/profile';
import { LoadError } from '../../../components/ui/load-error';
import { useRelationship } from '../api/count-planning';

interface SelectProps {
  id: string;
  plant: string | undefined;
  value: string;
  onChange: (value: string) => void;
  /** Offer the empty choice ("not assigned yet", "from the storage location"). Editing a count cannot go back to it. */
  allowEmpty?: boolean;
  /** The id of a note read with the field (what the count holds now, beside a refused change's value). */
  describedBy?: string | undefined;
}

export function CountedBySelect({ id, plant, value, onChange, allowEmpty = true, invalidOf, describedBy }: SelectProps & { invalidOf?: string }) {
  const { t } = useTranslation();
  const mechanics = useRelationship('mechanic', plant);
  // `invalidOf`: the id of the error this field is missing for (a count sent with nobody to count it).
  const described = [invalidOf, describedBy].filter(Boolean).join(' ') || undefined;
  const invalid = { ...(invalidOf ? { 'aria-invalid': true } : {}), ...(described ? { 'aria-describedby': described } : {}) };
  return (
    <>
      <label htmlFor={id}>{t('stockCount.conductedByLabel')}</label>
      <select id={id} value={value} disabled={!plant} {...invalid} onChange={(event) => onChange(event.target.value)}>
        {allowEmpty && <option value="">{t('stockCount.unassigned')}</option>}
        {/* The count's own person stays a choice even when not among the plant's mechanics (a supervisor, say). */}
        {value && mechanics.data && !mechanics.data.mechanics.some((m) => m.email === value) && <option value={value}>{value}</option>}
        {mechanics.data?.mechanics.map((m) => (
          <option key={m.email} value={m.email}>
            {m.display_name} · {m.email}
          </option>
        ))}
      </select>
      {/* A list that could not come (no connection, nothing saved) says so: an empty choice said nothing. */}
      {mechanics.error && <LoadError error={mechanics.error} />}
    </>
  );
}

export function WorkCenterSelect({ id, plant, value, onChange, allowEmpty = true, describedBy }: SelectProps) {
  const { t } = useTranslation();
  const centers = useRelationship('work_center', plant);
  const { permissions, plannerGroups } = useProfile();
  // A supervisor plans counts of their planner groups only (the server refuses the others): the
  // work centers of other groups are not offered.
  const limited = permissions.includes('supervisor') && !permissions.includes('stock_admin') && !isSuperManager(permissions);
  const offered = (centers.data?.work_centers ?? []).filter((w) => !limited || (w.planner_group !== null && plannerGroups.includes(w.planner_group)));
  return (
    <>
      <label htmlFor={id}>{t('stockCount.workCenter')}</label>
      <select id={id} value={value} disabled={!plant} aria-describedby={describedBy} onChange={(event) => onChange(event.target.value)}>
        {allowEmpty && <option value="">{t('stockCount.fromLocation')}</option>}
        {value && centers.data && !offered.some((w) => w.code === value) && <option value={value}>{value}</option>}
        {offered.map((w) => (
          <option key={w.code} value={w.code}>
            {w.code} · {w.name}
          </option>
        ))}
      </select>
      {centers.error && <LoadError error={centers.error} />}
    </>
  );
}
