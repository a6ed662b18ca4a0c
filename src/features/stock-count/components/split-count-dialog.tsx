/**
 * #18 the split of a count among counters (decision 0033): one part per person, each by bin
 * range, by picked material codes, or "the rest"; materials a part also counts on purpose though
 * another part holds them (a control count); a blind count. An existing split is shown as it stands (each part's material codes), so
 * the planner edits it rather than typing it again; the server keeps every kept counter's work.
 * The save names the parts the form started from: a split changed meanwhile (another planner) is
 * refused; the dialog then reads it as it is now and lists it above the form, which keeps the
 * planner's own parts (nothing typed is lost): Save puts them in its place, now knowingly. A split
 * that could not be read is never replaced by a blank form: the dialog offers to read it again.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Relationships, StockCountRow } from '../../../contract/stock';
import type { PartSpec, SplitStockCountBody, StockCountPartRow, StockCountParts } from '../../../contract/stock-count-parts';
import { errorMessage } from '../../../lib/api-client';
import { useOnline } from '../../../lib/use-online';
import { Dialog } from '../../../components/ui/dialog';
import { FormActions } from '../../../components/ui/form-actions';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { isSplitChangedMeanwhile, readSplit, splitCount } from '../api/count-parts';
import { useRelationship } from '../api/count-planning';
import '../stock-count.css';
import { useUnsavedText } from '../../../lib/unsaved-text';

type Mode = 'bins' | 'materials' | 'rest';
export interface DraftPart {
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
export const draftPart = (mode: Mode, fields: Partial<DraftPart> = {}): DraftPart => ({
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

/**
 * The save of the form: `startedFrom`, the ids of the parts it was filled from (none: not split),
 * and `revision`, the split's revision then (lines in those parts), let the server refuse a split
 * changed since rather than replace it unseen.
 */
export function splitBody(
  stockCountId: number,
  drafts: DraftPart[],
  startedFrom: readonly number[],
  blind: { wanted: boolean; was: boolean },
  revision?: string,
): SplitStockCountBody {
  const control = controlCodes(drafts);
  return {
    stockCountId,
    parts: drafts.map(toSpec),
    ...(control.length ? { controlMaterialCodes: control } : {}),
    ...(blind.wanted !== blind.was ? { blind: blind.wanted } : {}),
    expectedPartIds: [...startedFrom],
    ...(revision !== undefined ? { expectedSplitRevision: revision } : {}),
  };
}

export interface CounterChoice {
  email: string;
  label: string;
}

/**
 * Whom a part's "Counted by" offers: the plant's mechanics, and every counter the split already
 * has though the list lacks them (a supervisor, a stock admin, one whose access ran out, or no list
 * at all), so a part never opens on "Choose…" while it holds a person. People given another part
 * (`taken`) are not offered again.
 */
export function counterChoices(
  listed: Relationships['mechanics'] | undefined,
  shown: ReadonlyArray<Pick<StockCountPartRow, 'counter' | 'counter_name'>>,
  value: string,
  taken: readonly string[],
): CounterChoice[] {
  const choices = new Map<string, CounterChoice>();
  for (const m of listed ?? []) choices.set(m.email.toLowerCase(), { email: m.email, label: `${m.display_name} · ${m.email}` });
  for (const part of shown) {
    if (!choices.has(part.counter.toLowerCase())) choices.set(part.counter.toLowerCase(), { email: part.counter, label: part.counter_name ? `${part.counter_name} · ${part.counter}` : part.counter });
  }
  if (value && !choices.has(value.toLowerCase())) choices.set(value.toLowerCase(), { email: value, label: value });
  const others = new Set(taken.map((email) => email.toLowerCase()));
  return [...choices.values()].filter((choice) => choice.email === value || !others.has(choice.email.toLowerCase()));
}

export function CounterSelect({ id, value, choices, invalid, onChange }: { id: string; value: string; choices: CounterChoice[]; invalid: boolean; onChange: (email: string) => void }) {
  const { t } = useTranslation();
  return (
    <select id={id} value={value} aria-invalid={invalid ? true : undefined} onChange={(event) => onChange(event.target.value)}>
      <option value="">{t('stockCount.choose')}</option>
      {choices.map((choice) => (
        <option key={choice.email} value={choice.email}>
          {choice.label}
        </option>
      ))}
    </select>
  );
}

/** A list the form needs that did not come: what failed, and a way to ask again. */
export function RetryLoad({ lead, error, onRetry }: { lead: string; error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div>
      <p>{lead}</p>
      <LoadError error={error} />
      <button type="button" className="button small" onClick={onRetry}>
        {t('common.tryAgain')}
      </button>
    </div>
  );
}

/**
 * The split could not be read: no form (and no Save) rather than a blank one that would replace
 * it; the refusal that led here (a split changed meanwhile) stays in sight.
 */
export function SplitLoadFailed({ error, refusal, onRetry, onClose }: { error: unknown; refusal: string | null; onRetry: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="form-grid">
      {refusal && (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      )}
      <p>{t('stockCount.split.notLoaded')}</p>
      <LoadError error={error} />
      <div className="dialog-actions">
        <button type="button" className="button ghost" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="button" className="button primary" onClick={onRetry}>
          {t('common.tryAgain')}
        </button>
      </div>
    </div>
  );
}

/**
 * The split as it is now, read after the planner's save was refused for a change made meanwhile:
 * each part's name, counter and materials, above the form that still holds the planner's parts.
 */
export function SplitNow({ parts, shown }: { parts: DraftPart[]; shown: ReadonlyArray<Pick<StockCountPartRow, 'counter' | 'counter_name'>> }) {
  const { t } = useTranslation();
  const nameOf = (email: string) => shown.find((part) => part.counter.toLowerCase() === email.toLowerCase())?.counter_name ?? email;
  return (
    <section className="split-now" aria-labelledby="split-now-title">
      <h3 id="split-now-title">{t('stockCount.split.nowTitle')}</h3>
      {parts.length === 0 ? (
        <p className="muted small">{t('stockCount.split.nowNone')}</p>
      ) : (
        <ol>
          {parts.map((part, index) => {
            const codes = codesOf(part.codes);
            return (
              <li key={part.key}>
                <strong>{part.label || t('stockCount.split.partN', { n: index + 1 })}</strong> · {nameOf(part.counter)}
                <span className="muted small"> · {t('stockCount.split.nowMaterials', { count: codes.length, codes: codes.slice(0, 8).join(', ') + (codes.length > 8 ? ', …' : '') })}</span>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
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
  onStale,
}: {
  count: StockCountRow;
  /** The count's parts as the caller already read them (none: not split yet); null: the dialog reads them. */
  existing: StockCountPartRow[] | null;
  onClose: () => void;
  onSaved: (progress: StockCountParts) => void;
  /** The split was changed by someone else meanwhile: what the caller shows of it is out of date. */
  onStale?: () => void;
}) {
  const { t } = useTranslation();
  const online = useOnline();
  const mechanics = useRelationship('mechanic', count.plant);
  // What to read the form from: the parts the dialog opened on (progress read meanwhile must not
  // reset what the planner edits), or { known: null } to read the split as it is now (a new object each time).
  const [source, setSource] = useState<{ known: StockCountPartRow[] | null }>(() => ({ known: existing }));
  // The parts the form was filled from: the save names them (expectedPartIds).
  const [shown, setShown] = useState<StockCountPartRow[]>([]);
  // The split's revision the form was filled from: the save names it (expectedSplitRevision).
  const [revision, setRevision] = useState<string | undefined>(undefined);
  const [parts, setParts] = useState<DraftPart[] | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [wasBlind, setWasBlind] = useState(Boolean(count.is_blind));
  const [blind, setBlind] = useState(Boolean(count.is_blind));
  const [error, setError] = useState<string | null>(null);
  const [showMissing, setShowMissing] = useState(false);
  /** The planner's parts, kept across the read that follows a refusal (a split changed meanwhile). */
  const kept = useRef<{ parts: DraftPart[]; blind: boolean } | null>(null);
  /** Kept parts wait for the read: unsaved meanwhile (closing asks; a reload asks), though no form shows them. */
  const [holding, setHolding] = useState(false);
  /** The split as it is now, when the form holds the planner's kept parts instead of it. */
  const [now, setNow] = useState<DraftPart[] | null>(null);
  /** The form as read from the split: what the planner's edits are compared with. */
  const [baseline, setBaseline] = useState<{ parts: string; blind: boolean | null } | null>(null);
  const unsaved = holding || (parts !== null && baseline !== null && (JSON.stringify(parts) !== baseline.parts || blind !== (baseline.blind ?? Boolean(count.is_blind))));
  const release = useUnsavedText(unsaved);

  // The split as it stands: each part as its material codes (bins and "the rest" resolve to lines on the server).
  useEffect(() => {
    let live = true;
    readSplit(count.id, source.known).then(
      (split) => {
        if (!live) return;
        setShown(split.parts);
        setRevision(split.revision);
        if (split.isBlind !== null) {
          setWasBlind(split.isBlind);
          setBlind(split.isBlind);
        }
        const drafts =
          split.parts.length === 0
            ? [draftPart('bins'), draftPart('rest')]
            : split.parts.map((part, index) => draftPart('materials', { counter: part.counter, label: part.label ?? '', codes: split.codes[index]!.join(' ') }));
        setBaseline({ parts: JSON.stringify(drafts), blind: split.isBlind });
        // After a refusal the form keeps what the planner made; the split as it is now is listed.
        const mine = kept.current;
        kept.current = null;
        setNow(mine ? (split.parts.length === 0 ? [] : drafts) : null);
        setParts(mine ? mine.parts : drafts);
        if (mine) setBlind(mine.blind);
        setHolding(false);
      },
      (failure: unknown) => {
        if (live) setLoadError(failure ?? new Error('not loaded'));
      },
    );
    return () => {
      live = false;
    };
  }, [count.id, source]);

  const readAgain = () => {
    setParts(null);
    setLoadError(null);
    setShowMissing(false);
    setSource({ known: null });
  };

  const save = useMutation({
    meta: { silent: true },
    mutationFn: (drafts: DraftPart[]) =>
      splitCount(
        splitBody(
          count.id,
          drafts,
          shown.map((part) => part.id),
          { wanted: blind, was: wasBlind },
          revision,
        ),
      ),
    onSuccess: (progress) => {
      release();
      onSaved(progress);
    },
    onError: async (failure, drafts) => {
      // Nothing was saved. Changed meanwhile: the split is read as it is now and listed, and the
      // form keeps the planner's parts; Save then names the split read now (revision, part ids).
      if (await isSplitChangedMeanwhile(failure)) {
        setError(t('stockCount.split.keptYours', { id: count.id }));
        // The form as it is now (edits made while the save was on its way too), not as it was sent.
        kept.current = { parts: parts ?? drafts, blind };
        setHolding(true);
        onStale?.();
        readAgain();
        return;
      }
      setError(await errorMessage(failure));
    },
  });

  const change = (key: number, fields: Partial<DraftPart>) => setParts((drafts) => drafts?.map((part) => (part.key === key ? { ...part, ...fields } : part)) ?? null);
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
    <Dialog open title={t('stockCount.split.title', { id: count.id })} onClose={onClose} unsaved={unsaved}>
      {loadError ? (
        <SplitLoadFailed error={loadError} refusal={error} onRetry={readAgain} onClose={onClose} />
      ) : !parts ? (
        <Spinner label={t('loading.listingItems')} />
      ) : (
        <form className="form-grid split-form" onSubmit={submit} noValidate>
          <p className="muted small">{t('stockCount.split.intro')}</p>
          {!online && <p className="notice">{t('stockCount.split.offline')}</p>}
          {now && <SplitNow parts={now} shown={shown} />}
          {/* The list is read quietly (a mirrored read): a failure is said here, not as an empty choice. */}
          {mechanics.error && <RetryLoad lead={t('stockCount.split.countersNotLoaded')} error={mechanics.error} onRetry={() => void mechanics.refetch()} />}
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
                  <CounterSelect
                    id={`${id}-who`}
                    value={part.counter}
                    choices={counterChoices(
                      mechanics.data?.mechanics,
                      shown,
                      part.counter,
                      parts.filter((other) => other.key !== part.key).map((other) => other.counter),
                    )}
                    invalid={invalid && !part.counter}
                    onChange={(counter) => change(part.key, { counter })}
                  />
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
