/**
 * What a route shows when it fails to render: for a chunk that did not load (§8: "chunk loading
 * failure reports timeout or missing"), which of the two and the file, and a reload button;
 * for anything else, the error's message and the same button. Inside the shell for app screens.
 */
import { useRouteError } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { isChunkLoadError } from '../lib/chunk-load';

export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const chunk = isChunkLoadError(error) ? error : null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <section className="center-screen route-error" role="alert">
      <h1 className="page-title">{chunk ? t('chunkLoad.title') : t('chunkLoad.otherTitle')}</h1>
      <p className="muted">
        {chunk ? (chunk.kind === 'timeout' ? t('chunkLoad.timeout') : t('chunkLoad.missing')) : message}
      </p>
      {chunk && <p className="muted small route-error-detail">{`${chunk.kind}: ${chunk.detail}`}</p>}
      <button type="button" className="button primary" onClick={() => window.location.reload()}>
        {t('chunkLoad.reload')}
      </button>
    </section>
  );
}
