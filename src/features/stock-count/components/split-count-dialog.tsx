/**
 * #18 the split of a count among counters (decision 0033): one part per person, each by bin
 * range, by picked material codes, or "the rest"; materials a part also counts on purpose though
 * another part holds them (a control count); a blind count. An existing split is shown as it stands (each part's material codes), so
 * the planner edits it rather than typing it again; the server keeps every kept counter's work.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { StockCountRow } from '../../../contract/stock';
import type { PartSpec, StockCountPartRow, StockCountParts } from '../../../contract/stock-count-parts';
import { errorMessage } from '../../../lib/api-client';
import { useOnline } from '../../../lib/use-online';
import { Dialog } from '../../../components/ui/dialog';
import { FormActions } from '../../../components/ui/form-actions';
import { Spinner } from '../../../components/ui/spinner';
import { fetchPartCodes, splitCount } from '../api/count-parts';
import { useRelationship } from '../api/count-planning';
import '../stock-count.css';

type Mode = 'bins' | 'materials' | 'rest';
interface DraftPart {
  key: number;
  counter: string;
  label: string;
  mode: Mode;
  binFrom: string;
  binTo: string;
  codes: string;
  /** Materials this part also counts, though another part holds them: a control count. */
  extra: string;
}

let nextKey = 1;
const draftPart = (mode: Mode, fields: Partial<DraftPart> = {}): DraftPart => ({
  key: nextKey++,
  counter: '',
  label: '',
  mode,
  binFrom: '',
  binTo: '',
  codes: '',
  extra: '',
  ...fields,
});
const codesOf = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

function toSpec(part: DraftPart): PartSpec {
  const label = part.label.trim() || undefined;
  const picked = [...new Set([...(part.mode === 'materials' ? codesOf(part.codes) : []), ...codesOf(part.extra)])];
  const base = { counter: part.counter, ...(label ? { label } : {}), ...(picked.length ? { materialCodes: picked } : {}) };
  if (part.mode === 'rest') return { ...base, rest: true };
  if (part.mode === 'bins') return { ...base, bins: [{ from: part.binFrom.trim(), to: part.binTo.trim() }] };
  return base;
}

/** The materials counted twice on purpose: every part's extra ones, and any picked in two parts. */
function controlCodes(parts: DraftPart[]): string[] {
  const times = new Map<string, number>();
  for (const part of parts) if (part.mode === 'materials') for (const code of new Set(codesOf(part.codes))) times.set(code, (times.get(code) ?? 0) + 1);
  return [...new Set([...parts.flatMap((part) => codesOf(part.extra)), ...[...times].filter(([, n]) => n > 1).map(([code]) => code)])];
}

/** What the planner must still fill in, per part (the server checks the rest and says what is wrong). */
function missingOf(part: DraftPart): boolean {
  if (!part.counter) return true;
  if (part.mode === 'bins') return !part.binFrom.trim() || !part.binTo.trim();
  if (part.mode === 'materials') return codesOf(part.codes).length === 0;
  return false;
}

export function SplitCountDialog({
  count,
  existing,
  onClose,
  onSaved,
}: {
  count: StockCountRow;
  /** The count's parts as the caller already read them (none: not split yet). */
  existing: StockCountPartRow[];
  onClose: () => void;
  onSaved: (progress: StockCountParts) => void;
}) {
  const { t } = useTranslation();
  const online = useOnline();
  const mechanics = useRelationship('mechanic', count.plant);
  // The split as the dialog opened on it: progress read meanwhile must not reset what the planner edits.
  const [current] = useState(existing);
  const [parts, setParts] = useState<DraftPart[] | null>(null);
  const [blind, setBlind] = useState(Boolean(count.is_blind));
  const [error, setError] = useState<string | null>(null);
  const [showMissing, setShowMissing] = useState(false);

  // The split as it stands: each part as its material codes (bins and "the rest" resolve to lines on the server).
  useEffect(() => {
    let live = true;
    const load = async () => {
      if (current.length === 0) return [draftPart('bins'), draftPart('rest')];
      const codes = await Promise.all(current.map((part) => fetchPartCodes(count.id, part.id)));
      return current.map((part, index) => draftPart('materials', { counter: part.counter, label: part.label ?? '', codes: codes[index]!.join(' ') }));
    };
    load().then(
      (loaded) => live && setParts(loaded),
      async (failure: unknown) => {
        if (!live) return;
        setError(await errorMessage(failure));
        setParts([draftPart('bins'), draftPart('rest')]);
      },
    );
    return () => {
      live = false;
    };
  }, [count.id, current]);

  const save = useMutation({
    meta: { silent: true },
    mutationFn: (drafts: DraftPart[]) =>
      splitCount({
        stockCountId: count.id,
        parts: drafts.map(toSpec),
        ...(controlCodes(drafts).length ? { controlMaterialCodes: controlCodes(drafts) } : {}),
        ...(blind !== Boolean(count.is_blind) ? { blind } : {}),
      }),
    onSuccess: onSaved,
    onError: async (failure) => setError(await errorMessage(failure)),
  });

  const change = (key: number, fields: Partial<DraftPart>) => setParts((current) => current?.map((part) => (part.key === key ? { ...part, ...fields } : part)) ?? null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!parts) return;
    if (parts.some(missingOf)) {
      setShowMissing(true);
      setError(t('stockCount.split.missing'));
      return;
    }
    setShowMissing(false);
    setError(null);
    save.mutate(parts);
  };
  const restTaken = parts?.some((part) => part.mode === 'rest') ?? false;

  return (
    <Dialog open title={t('stockCount.split.title', { id: count.id })} onClose={onClose}>
      {!parts ? (
        <Spinner label={t('loading.listingItems')} />
      ) : (
        <form className="form-grid split-form" onSubmit={submit} noValidate>
          <p className="muted small">{t('stockCount.split.intro')}</p>
          {!online && <p className="notice">{t('stockCount.split.offline')}</p>}
          <ol className="split-parts">
            {parts.map((part, index) => {
              const id = `split-${part.key}`;
              const invalid = showMissing && missingOf(part);
              return (
                <li key={part.key} className="split-part" aria-label={t('stockCount.split.partN', { n: index + 1 })}>
                  <div className="split-part-head">
                    <strong>{t('stockCount.split.partN', { n: index + 1 })}</strong>
                    {parts.length > 1 && (
                      <button type="button" className="button small ghost" onClick={() => setParts(parts.filter((other) => other.key !== part.key))}>
                        {t('stockCount.split.removePart', { n: index + 1 })}
                      </button>
                    )}
                  </div>
                  <label htmlFor={`${id}-who`}>{t('stockCount.split.counter')}</label>
                  <select
                    id={`${id}-who`}
                    value={part.counter}
                    aria-invalid={invalid && !part.counter ? true : undefined}
                    onChange={(event) => change(part.key, { counter: event.target.value })}
                  >
                    <option value="">{t('stockCount.choose')}</option>
                    {/* A person counts one part: people already given one are not offered again. */}
                    {mechanics.data?.mechanics
                      .filter((m) => m.email === part.counter || !parts.some((other) => other.counter === m.email))
                      .map((m) => (
                        <option key={m.email} value={m.email}>
                          {m.display_name} · {m.email}
                        </option>
                      ))}
                  </select>
                  <label htmlFor={`${id}-mode`}>{t('stockCount.split.linesBy')}</label>
                  <select id={`${id}-mode`} value={part.mode} onChange={(event) => change(part.key, { mode: event.target.value as Mode })}>
                    <option value="bins">{t('stockCount.split.byBins')}</option>
                    <option value="materials">{t('stockCount.split.byMaterials')}</option>
                    {(part.mode === 'rest' || !restTaken) && <option value="rest">{t('stockCount.split.rest')}</option>}
                  </select>
                  {part.mode === 'bins' && (
                    <div className="split-bins">
                      <span>
                        <label htmlFor={`${id}-from`}>{t('stockCount.split.binFrom')}</label>
                        <input type="text" id={`${id}-from`} value={part.binFrom} maxLength={40} autoCapitalize="characters" aria-invalid={invalid && !part.binFrom.trim() ? true : undefined} onChange={(event) => change(part.key, { binFrom: event.target.value })} />
                      </span>
                      <span>
                        <label htmlFor={`${id}-to`}>{t('stockCount.split.binTo')}</label>
                        <input type="text" id={`${id}-to`} value={part.binTo} maxLength={40} autoCapitalize="characters" aria-invalid={invalid && !part.binTo.trim() ? true : undefined} onChange={(event) => change(part.key, { binTo: event.target.value })} />
                      </span>
                    </div>
                  )}
                  {part.mode === 'materials' && (
                    <>
                      <label htmlFor={`${id}-codes`}>{t('stockCount.materialCodes')}</label>
                      <textarea id={`${id}-codes`} rows={3} value={part.codes} aria-invalid={invalid && codesOf(part.codes).length === 0 ? true : undefined} onChange={(event) => change(part.key, { codes: event.target.value })} />
                    </>
                  )}
                  {part.mode === 'rest' && <p className="muted small">{t('stockCount.split.restNote')}</p>}
                  <label htmlFor={`${id}-extra`}>{t('stockCount.split.control')}</label>
                  <textarea id={`${id}-extra`} rows={1} value={part.extra} aria-describedby="split-control-note" onChange={(event) => change(part.key, { extra: event.target.value })} />
                  <label htmlFor={`${id}-label`}>{t('stockCount.split.label')}</label>
                  <input type="text" id={`${id}-label`} value={part.label} maxLength={120} placeholder={t('stockCount.split.labelHint')} onChange={(event) => change(part.key, { label: event.target.value })} />
                </li>
              );
            })}
          </ol>
          <button type="button" className="button small" onClick={() => setParts([...parts, draftPart(restTaken ? 'bins' : 'rest')])}>
            {t('stockCount.split.addPart')}
          </button>
          <p id="split-control-note" className="muted small">
            {t('stockCount.split.controlNote')}
          </p>
          <label className="toggle">
            <input type="checkbox" checked={blind} onChange={(event) => setBlind(event.target.checked)} />
            {t('stockCount.split.blind')}
          </label>
          <FormActions error={error} onCancel={onClose} submitLabel={t('stockCount.split.save')} isPending={save.isPending || !online} />
        </form>
      )}
    </Dialog>
  );
}
