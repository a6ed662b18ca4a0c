/**
 * §2 landing page: sign in with Microsoft or Google; on the embedded default the server also
 * offers the local demo accounts. The first screen (#22): no router, no TanStack Query, no ky,
 * so it also renders before the app is loaded. The card is drawn at once, without waiting for
 * `/auth/config`; the sign-in options that arrive with it fill a reserved space at the end of
 * the card, so nothing above them moves (no layout shift).
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { configuredProviders } from '../../../lib/auth/providers';
import { Icon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useAuthConfig } from '../api/get-auth-config';
import { useSignIn, type SignInFailure } from '../hooks/use-sign-in';

export function LandingView({ onSignInStart }: { onSignInStart?: () => void }) {
  const { t } = useTranslation();
  const config = useAuthConfig();
  const signIn = useSignIn(onSignInStart);
  const [email, setEmail] = useState('');
  const providers = configuredProviders();

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

        {signIn.error && <SignInError failure={signIn.error} />}

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

        {config.isPending && (
          <div className="landing-options-pending">
            <Spinner label={t('loading.signInOptions')} />
          </div>
        )}

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

/** A failed sign-in in the user's language; the provider's words or code, if any, small beneath. */
export function SignInError({ failure }: { failure: SignInFailure }) {
  const { t } = useTranslation();
  return (
    <p className="form-error" role="alert">
      {t(failure.key, failure.values)}
      {failure.detail && (
        <>
          <br />
          <span className="small">{failure.detail}</span>
        </>
      )}
    </p>
  );
}
