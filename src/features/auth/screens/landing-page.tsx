/**
 * §2 landing page: sign in with Microsoft or Google; on the embedded default the server also
 * offers the local demo accounts. A signed-in user goes straight to the status monitor.
 */
import { useState, type FormEvent } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { configuredProviders } from '../../../lib/auth/providers';
import { useSession } from '../../../lib/auth/use-session';
import { HOME_PATH } from '../../../lib/paths';
import { Icon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useAuthConfig } from '../api/get-auth-config';
import { useSignIn } from '../hooks/use-sign-in';

export default function LandingPage() {
  const { t } = useTranslation();
  const session = useSession();
  const config = useAuthConfig();
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const providers = configuredProviders();
  const from = (useLocation().state as { from?: string } | null)?.from;

  // Signed in: go where the user was heading, else the status monitor (§2, §4).
  if (session) return <Navigate to={from && from !== '/' ? from : HOME_PATH} replace />;

  const onLocalSubmit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ provider: 'local', email });
  };
  const busy = signIn.isPending;
  const local = config.data?.localSignIn === true;

  return (
    <main className="landing">
      <section className="landing-card" aria-labelledby="landing-title">
        <div className="landing-brand">
          <img src="/favicon.svg" alt="" width={56} height={56} />
          <div>
            <h1 id="landing-title">{t('app.name')}</h1>
            <p className="muted">{t('landing.tagline')}</p>
          </div>
        </div>

        {signIn.error && (
          <p className="form-error" role="alert">
            {signIn.error.message}
          </p>
        )}

        {providers.length > 0 && (
          <div className="provider-buttons">
            {providers.includes('microsoft') && (
              <button type="button" className="button provider" disabled={busy} onClick={() => signIn.mutate({ provider: 'microsoft' })}>
                <Icon name="microsoft" /> {t('landing.signInMicrosoft')}
              </button>
            )}
            {providers.includes('google') && (
              <button type="button" className="button provider" disabled={busy} onClick={() => signIn.mutate({ provider: 'google' })}>
                <Icon name="google" /> {t('landing.signInGoogle')}
              </button>
            )}
          </div>
        )}

        {config.isPending && <Spinner label={t('loading.signInOptions')} />}

        {local && (
          <div className="demo-sign-in">
            <h2>{t('landing.demoTitle')}</h2>
            <p className="muted small">{t('landing.demoIntro')}</p>
            <ul className="demo-accounts">
              {config.data?.demoAccounts.map((account) => (
                <li key={account.email}>
                  <button
                    type="button"
                    className="demo-account"
                    disabled={busy}
                    onClick={() => signIn.mutate({ provider: 'local', email: account.email })}
                  >
                    <span className="demo-account-name">{account.displayName}</span>
                    <span className="demo-account-email">{account.email}</span>
                    <span className="demo-account-note">{account.note}</span>
                  </button>
                </li>
              ))}
            </ul>
            <form className="inline-form" onSubmit={onLocalSubmit}>
              <label htmlFor="local-email">{t('landing.otherAddress')}</label>
              <div className="inline-form-row">
                <input
                  id="local-email"
                  type="email"
                  inputMode="email"
                  autoComplete="email"
                  required
                  value={email}
                  placeholder="name@example.com"
                  onChange={(event) => setEmail(event.target.value)}
                />
                <button type="submit" className="button primary" disabled={busy}>
                  {t('landing.signIn')}
                </button>
              </div>
            </form>
          </div>
        )}

        {!config.isPending && !local && providers.length === 0 && (
          <p className="form-error" role="alert">
            {t('landing.noProvider')}
          </p>
        )}
        {busy && <Spinner label={t('landing.signingIn')} />}
      </section>
    </main>
  );
}
