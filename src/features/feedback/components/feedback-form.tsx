/**
 * One feedback form. The browser checks with the same contract the server uses and shows the
 * §5 messages in the user's language next to each field; the server's answer (a plant outside
 * the user's own, say) is shown as it comes.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { feedbackBody, FEEDBACK_RATING_MAX, type FeedbackType } from '../../../contract/feedback';
import { MESSAGES } from '../../../domain/constants';
import { formatQuantity, isGroupedQuantityInput, parseQuantityInput } from '../../../domain/quantity';
import { errorMessage } from '../../../lib/api-client';
import { focusFirstInvalid } from '../../../lib/focus-first-invalid';
import { useProfile } from '../../../lib/profile';
import { useOnline } from '../../../lib/use-online';
import { useFeedbackPlants, useSendFeedback, type FeedbackPlant } from '../api/feedback';
import { deliveredSince, draftKeyOf, readDraft, settleSend, takenBack, useDraft, writeDraft, type Draft, type DraftValues as Values } from '../api/feedback-drafts';
import { FORM_FIELDS, type FormField } from './form-fields';

function toBody(type: FeedbackType, values: Values): Record<string, unknown> {
  const body: Record<string, unknown> = { type };
  for (const field of FORM_FIELDS[type]) {
    const raw = (values[field.name] ?? '').trim();
    if (raw === '') continue;
    if (field.kind === 'quantity') body[field.name] = parseQuantityInput(raw) ?? undefined;
    else if (field.kind === 'rating') body[field.name] = Number(raw);
    else body[field.name] = raw;
  }
  return body;
}

/**
 * The quantity fields typed with the language's thousands separator ("1.250" in German, "1,250" in
 * English): refused with a word on how to write them, not read as 1.25 (parseQuantityInput takes
 * its one separator as the decimal mark), nor guessed as 1250.
 */
export function groupedQuantityFields(type: FeedbackType, values: Values, language: string): string[] {
  return FORM_FIELDS[type].filter((field) => field.kind === 'quantity' && isGroupedQuantityInput(values[field.name] ?? '', language)).map((field) => field.name);
}

export function FeedbackForm({ type, onSent }: { type: FeedbackType; onSent: () => void }) {
  const { t, i18n } = useTranslation();
  const { email } = useProfile();
  const fields = FORM_FIELDS[type];
  // Nothing typed is lost (a reload, another form type and back, a send without connection, the
  // app closed while it waits): the draft lives on the device per user and form until the server
  // has it (api/feedback-drafts.ts, decision 0062).
  const storageKey = draftKeyOf(email, type);
  const online = useOnline();
  // The stored draft, followed: the background send (feedback-drafts.ts) may deliver or refuse
  // the waiting text while the form is open, or another tab change it.
  const draft = useDraft(storageKey);
  const values = draft.values;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(() => draft.refused ?? null);
  const [missingRequired, setMissingRequired] = useState(false);
  const { plants, isUnavailable: plantsUnavailable } = useFeedbackPlants();
  const send = useSendFeedback();
  const needsPlant = fields.some((field) => field.kind === 'plant' && field.required);
  const noPlants = needsPlant && plants?.length === 0;

  // The text shown reached the server, by this form's Send or by the background send: "sent",
  // and the form is empty (its text gone from the device), so it cannot be sent a second time.
  // A refusal that came meanwhile is shown with the text it refused.
  const shown = useRef(draft);
  useEffect(() => {
    if (deliveredSince(shown.current, draft)) onSent();
    if (draft.refused && draft.refused !== shown.current.refused) setServerError(draft.refused);
    shown.current = draft;
  }, [draft, onSent]);

  /** §5 messages of the contract, in the user's language. */
  const translate = (message: string, field: string): string => {
    if (message.startsWith('Field ') && message.endsWith(' is required')) return t('feedback.errors.required', { field: t(`feedback.fields.${field}`) });
    if (message === 'Quantity should be greater than 0') return t('feedback.errors.quantityPositive');
    if (message === 'Quantity should be greater than or equal to 0') return t('feedback.errors.quantityNotNegative');
    if (message === MESSAGES.emailFormat) return t('feedback.errors.email');
    if (message === MESSAGES.mobileNumber) return t('feedback.errors.mobile');
    if (message.includes('rating must be between')) return t('feedback.errors.rating', { max: FEEDBACK_RATING_MAX });
    if (message.startsWith('Storage location to must differ')) return t('feedback.errors.sameLocation');
    const longest = / must be (\d+) characters or less$/.exec(message);
    if (longest) return t('feedback.errors.tooLong', { field: t(`feedback.fields.${field}`), max: Number(longest[1]) });
    if (message.endsWith(' may hold letters, digits and / . _ - only')) return t('feedback.errors.codeCharacters', { field: t(`feedback.fields.${field}`) });
    if (message === 'Quantity must be 1,000,000 or less') return t('feedback.errors.quantityTooLarge', { max: 1_000_000 });
    return message;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setServerError(null);
    const grouped = groupedQuantityFields(type, values, i18n.language);
    const parsed = feedbackBody.safeParse(toBody(type, values));
    if (!parsed.success || grouped.length > 0) {
      const found: Record<string, string> = {};
      // The transfer dialog's words, its example as the field takes it ("1500,5" in German).
      for (const name of grouped) found[name] = t('stock.transferQuantityGrouped', { example: formatQuantity(1500.5, i18n.language, { inField: true }) });
      const issues = parsed.success ? [] : parsed.error.issues;
      setMissingRequired(issues.some((issue) => /^Field \S+ is required$/.test(issue.message)));
      for (const issue of issues) {
        const field = String(issue.path[0] ?? '');
        found[field] ??= translate(issue.message, field);
      }
      setErrors(found);
      focusFirstInvalid(event.currentTarget as HTMLFormElement);
      return;
    }
    setErrors({});
    setMissingRequired(false);
    // Kept as sending before it goes: closed now, it is sent at the next start (under its key).
    const sending: Draft = { values: draft.values, key: draft.key, sending: parsed.data };
    writeDraft(storageKey, sending);
    deliver(sending);
  };

  const deliver = (sending: Draft) => {
    if (!sending.sending) return;
    send.mutate(
      { body: sending.sending, key: sending.key },
      {
        // Delivered: the draft is cleared and the form says "sent" (the effect above; also when
        // the background send was first and this answer is the server's replay of it).
        onSuccess: async () => {
          await settleSend(storageKey, sending.key, { ok: true });
        },
        // Refused (4xx): the text is back for correcting, with the server's words. No answer: it
        // stays waiting and goes when the connection returns (feedback-drafts.ts).
        onError: async (failure) => {
          const outcome = await settleSend(storageKey, sending.key, { ok: false, error: failure });
          if (outcome === 'refused') setServerError(await errorMessage(failure));
        },
      },
    );
  };

  // The text taken back from a send that has not gone: editable again, under its key until it is
  // changed (feedback-drafts.ts takenBack): sent again as it was, it is applied once.
  const editAgain = () => writeDraft(storageKey, takenBack(readDraft(storageKey)));

  // A send that was waiting when the form was last open goes now (the same key: applied once,
  // also if the background send of feedback-drafts.ts delivers it at the same moment).
  const resumed = useRef(false);
  useEffect(() => {
    if (resumed.current || !draft.sending) return;
    resumed.current = true;
    deliver(draft);
    // Only at mount: a send pressed later goes from submit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Another text is another submission: a new key (the same text sent again keeps its key: applied once).
  // While a text is being sent the fields are read-only: an edit would be lost when it arrives.
  const set = (name: string, value: string) => {
    const old = readDraft(storageKey);
    if (old.sending) return;
    writeDraft(storageKey, { values: { ...old.values, [name]: value }, key: crypto.randomUUID() });
  };

  return (
    <form className="feedback-form" onSubmit={submit} noValidate aria-describedby={noPlants ? 'feedback-no-plants' : undefined}>
      {noPlants && (
        <p id="feedback-no-plants" className="notice">
          {t('feedback.noPlants')}
        </p>
      )}
      <fieldset className="feedback-fields" disabled={Boolean(draft.sending)}>
        {fields.map((field) => (
          <Field
            key={field.name}
            field={field}
            value={values[field.name] ?? ''}
            error={errors[field.name]}
            plants={plants ?? []}
            plantsUnavailable={plantsUnavailable}
            onChange={set}
          />
        ))}
      </fieldset>
      {missingRequired && (
        <p className="form-error" role="alert">
          {t('feedback.errors.summary')}
        </p>
      )}
      {serverError && (
        <p className="form-error" role="alert">
          {serverError}
        </p>
      )}
      {/* Offline the send waits (kept as a draft too) and goes as soon as the connection returns. */}
      {draft.sending && (send.isPaused || !send.isPending) && (
        <p className="notice" role="status">
          {online ? t('feedback.notSentYet') : t('feedback.waitingForConnection')}
        </p>
      )}
      <div className="button-row start">
        {/* A text that did not go (no answer, a server error) is sent again under its key with
            Send, or taken back to change it; it is never locked. */}
        <button
          type="submit"
          className="button primary"
          disabled={send.isPending || (Boolean(draft.sending) && !online) || noPlants}
          onClick={(event) => {
            if (!draft.sending) return;
            event.preventDefault();
            deliver(draft);
          }}
        >
          {t('feedback.send')}
        </button>
        {draft.sending && !send.isPending && (
          <button type="button" className="button" onClick={editAgain}>
            {t('feedback.editAgain')}
          </button>
        )}
      </div>
    </form>
  );
}

function Field({
  field,
  value,
  error,
  plants,
  plantsUnavailable,
  onChange,
}: {
  field: FormField;
  value: string;
  error: string | undefined;
  plants: readonly FeedbackPlant[];
  /** No list of plants at hand (offline, and not one the profile gives): said next to the plant field. */
  plantsUnavailable: boolean;
  onChange: (name: string, value: string) => void;
}) {
  const { t } = useTranslation();
  const id = `fb-${field.name}`;
  const label = `${t(`feedback.fields.${field.name}`)}${field.required ? ' *' : ''}`;
  const note = field.kind === 'plant' && plantsUnavailable ? `${id}-note` : undefined;
  const describedBy = [error ? `${id}-error` : undefined, note].filter(Boolean).join(' ') || undefined;
  const common = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy, 'aria-required': field.required || undefined };
  let control;
  if (field.kind === 'rating') {
    return (
      <fieldset className="rating-field" aria-describedby={describedBy}>
        <legend>{label}</legend>
        <div className="rating-options">
          {Array.from({ length: FEEDBACK_RATING_MAX }, (_, index) => String(index + 1)).map((score) => (
            <label key={score} className={`rating-option${value === score ? ' selected' : ''}`}>
              <input
                type="radio"
                name="rating"
                value={score}
                checked={value === score}
                // The missing rating is the first field the cursor goes to (focusFirstInvalid), as other fields.
                aria-invalid={error ? true : undefined}
                onChange={() => onChange('rating', score)}
              />
              <span aria-hidden="true">{Number(score) <= Number(value || 0) ? '★' : '☆'}</span>
              <span className="visually-hidden">{t('feedback.ratingValue', { score, max: FEEDBACK_RATING_MAX })}</span>
            </label>
          ))}
        </div>
        {error && (
          <p id={`${id}-error`} className="field-error">
            {error}
          </p>
        )}
      </fieldset>
    );
  }
  if (field.kind === 'plant') {
    control = (
      <select {...common} value={value} onChange={(event) => onChange(field.name, event.target.value)}>
        <option value="">{t('feedback.choosePlant')}</option>
        {plants.map((plant) => (
          <option key={plant.code} value={plant.code}>
            {plant.name ? `${plant.code} · ${plant.name}` : plant.code}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'textarea') {
    control = <textarea {...common} rows={4} maxLength={2000} value={value} onChange={(event) => onChange(field.name, event.target.value)} />;
  } else {
    const type = field.kind === 'email' ? 'email' : field.kind === 'tel' ? 'tel' : 'text';
    const inputMode = field.kind === 'quantity' ? 'decimal' : field.kind === 'tel' ? 'tel' : undefined;
    control = (
      <input
        {...common}
        type={type}
        inputMode={inputMode}
        autoComplete={field.kind === 'email' ? 'email' : field.kind === 'tel' ? 'tel' : 'off'}
        value={value}
        placeholder={field.kind === 'tel' ? '+358401234567' : undefined}
        onChange={(event) => onChange(field.name, event.target.value)}
      />
    );
  }
  return (
    <div className="feedback-field">
      <label htmlFor={id}>{label}</label>
      {control}
      {note && (
        <p id={note} className="muted small">
          {t('feedback.plantsUnavailable')}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
