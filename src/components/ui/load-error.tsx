import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage, statusOf } from '../../lib/api-client';
import { GoneError, isNetworkFailure } from '../../offline/errors';
import { NothingSavedError } from '../../offline/mirror';

/**
 * What a screen shows where it could not load what it lists: a line in the user's language, with
 * the server's own message under it when the server sent one (§8) — never the HTTP client's text
 * (status, method and address, in English, running off a phone's screen). `notFound`: the
 * screen's own words for a thing that does not exist or is no longer the caller's (404, GoneError,
 * or no error at all: nothing failed and nothing came).
 */
export function LoadError({ error, notFound }: { error: unknown; notFound?: string }) {
  const { t } = useTranslation();
  const [detail, setDetail] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setDetail(null);
    if (statusOf(error) !== null) {
      void errorMessage(error).then((message) => {
        if (live) setDetail(message);
      });
    }
    return () => {
      live = false;
    };
  }, [error]);
  if (notFound && (error == null || statusOf(error) === 404 || error instanceof GoneError)) {
    return (
      <p className="form-error" role="alert">
        {notFound}
      </p>
    );
  }
  const lead = error instanceof NothingSavedError ? t('common.notOnDevice') : isNetworkFailure(error) ? t('common.loadOffline') : t('common.loadFailed');
  return (
    <div className="form-error load-error" role="alert">
      <p>{lead}</p>
      {detail && <p className="load-error-detail">{detail}</p>}
    </div>
  );
}
