/**
 * /feedback: the six feedback forms of §3, the last chosen one remembered on this device (§4).
 * With VITE_FEEDBACK_FORM_URL set, the spec's embedded external form replaces them, with the
 * §8 notice to enable frames when the browser blocks it.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FEEDBACK_TYPES } from '../../../domain/constants';
import type { FeedbackType } from '../../../contract/feedback';
import { appConfig } from '../../../lib/config';
import { FeedbackForm } from '../components/feedback-form';
import { LAST_FORM_KEY } from '../components/form-fields';
import '../feedback.css';

function rememberedForm(): FeedbackType | null {
  try {
    const value = localStorage.getItem(LAST_FORM_KEY);
    return (FEEDBACK_TYPES as readonly string[]).includes(value ?? '') ? (value as FeedbackType) : null;
  } catch {
    return null;
  }
}

export default function FeedbackPage() {
  if (appConfig.feedbackFormUrl) return <ExternalFeedbackForm url={appConfig.feedbackFormUrl} />;
  return <InAppFeedback />;
}

function InAppFeedback() {
  const { t } = useTranslation();
  const [type, setType] = useState<FeedbackType | null>(rememberedForm);
  const [sent, setSent] = useState(false);
  const choose = (next: FeedbackType) => {
    setType(next);
    setSent(false);
    try {
      localStorage.setItem(LAST_FORM_KEY, next);
    } catch {
      // private mode: the choice is simply not remembered
    }
  };
  return (
    <section className="page narrow-page feedback-page">
      <h1 className="page-title route-title">{t('routes.feedback')}</h1>
      <p className="muted">{t('feedback.intro')}</p>
      <fieldset className="form-picker">
        <legend className="section-title">{t('feedback.chooseForm')}</legend>
        {FEEDBACK_TYPES.map((option) => (
          <label key={option} className={`form-choice${option === type ? ' selected' : ''}`}>
            <input type="radio" name="feedback-type" value={option} checked={option === type} onChange={() => choose(option)} />
            <span className="strong">{t(`feedback.types.${option}.title`)}</span>
            <span className="muted small">{t(`feedback.types.${option}.hint`)}</span>
          </label>
        ))}
      </fieldset>
      {/* Always in the page, only its text changes: a status added with its text is often not read. */}
      <p className={sent ? 'notice success' : 'visually-hidden'} role="status">
        {sent ? t('feedback.sent') : ''}
      </p>
      {type && (
        <section className="panel" aria-labelledby="feedback-form-title">
          <h2 id="feedback-form-title" className="section-title">
            {t(`feedback.types.${type}.title`)}
          </h2>
          <FeedbackForm key={type} type={type} onSent={() => setSent(true)} />
        </section>
      )}
    </section>
  );
}

function ExternalFeedbackForm({ url }: { url: string }) {
  const { t } = useTranslation();
  return (
    <section className="page feedback-page">
      <h1 className="page-title route-title">{t('routes.feedback')}</h1>
      <p className="notice">
        {t('feedback.enableIframes')}{' '}
        <a href={url} target="_blank" rel="noopener noreferrer">
          {t('feedback.openInNewTab')}
        </a>
      </p>
      <iframe className="feedback-frame" title={t('feedback.externalTitle')} src={url} sandbox="allow-forms allow-scripts allow-same-origin allow-popups">
        {t('feedback.enableIframes')}
      </iframe>
    </section>
  );
}
