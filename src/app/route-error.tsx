/**
 * What a route shows when it fails to render: for a chunk that did not load (§8: "chunk loading
 * failure reports timeout or missing"), which of the two and the file, and a reload button;
 * for anything else, a sentence in the user's language with the error's own words under it, and
 * "Try again", which draws the screen again without reloading (what waits on the phone stays; a
 * reload is the second resort). Inside the shell for app screens.
 */
import { useLocation, useNavigate, useRouteError } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { isChunkLoadError } from '../lib/chunk-load';
import { reloadNewest } from '../lib/reload-newest';

export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const chunk = isChunkLoadError(error) ? error : null;
  const message = error instanceof Error ? error.message : String(error);
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <section className="center-screen route-error" role="alert">
      <h1 className="page-title">{chunk ? t('chunkLoad.title') : t('chunkLoad.otherTitle')}</h1>
      <p className="muted">{chunk ? (chunk.kind === 'timeout' ? t('chunkLoad.timeout') : t('chunkLoad.missing')) : t('chunkLoad.otherText')}</p>
      <p className="muted small route-error-detail">{chunk ? `${chunk.kind}: ${chunk.detail}` : message}</p>
      <div className="button-row">
        {!chunk && (
          // The same address again: the router draws the screen anew, nothing is reloaded.
          <button type="button" className="button primary" onClick={() => void navigate(`${location.pathname}${location.search}${location.hash}`, { replace: true })}>
            {t('chunkLoad.tryAgain')}
          </button>
        )}
        <button type="button" className={chunk ? 'button primary' : 'button'} onClick={() => void reloadNewest()}>
          {t('chunkLoad.reload')}
        </button>
      </div>
    </section>
  );
}
