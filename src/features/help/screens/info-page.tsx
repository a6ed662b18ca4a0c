/**
 * /info (§2): the instructions link (§6: only for the configured organisation), the legends of
 * the confirmation, delivery and location icons (§4), the search help (§5), and the ways to
 * send feedback and read the change log.
 */
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { TrackingIconLegend } from '../../../components/tracking/tracking-icons';
import { appConfig } from '../../../lib/config';
import { useProfile } from '../../../lib/profile';
import { SearchHelp } from '../components/search-help';
import '../help.css';

export default function InfoPage() {
  const { t } = useTranslation();
  const { organisation } = useProfile();
  const showInstructions =
    appConfig.instructionsUrl !== null && (appConfig.companyOrganisation === null || appConfig.companyOrganisation === organisation);
  return (
    <section className="page narrow-page help-page">
      <h1 className="page-title">{t('routes.info')}</h1>
      <nav className="help-links" aria-label={t('help.linksLabel')}>
        {showInstructions && (
          <a className="button" href={appConfig.instructionsUrl!} target="_blank" rel="noopener noreferrer">
            {t('help.instructions')}
          </a>
        )}
        <Link className="button" to="/feedback">
          {t('help.feedback')}
        </Link>
        <Link className="button" to="/change-log">
          {t('help.changeLog')}
        </Link>
      </nav>
      <section className="panel" aria-labelledby="legend-title">
        <h2 id="legend-title" className="section-title">
          {t('help.legendTitle')}
        </h2>
        <p className="muted">{t('help.legendIntro')}</p>
        <TrackingIconLegend />
      </section>
      <SearchHelp />
    </section>
  );
}
