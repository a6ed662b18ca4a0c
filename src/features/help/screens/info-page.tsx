/**
 * /info (§2): the company logo, material link and instructions link (§6: only for the configured
 * organisation, see company-links.ts), the legends of
 * the confirmation, delivery and location icons (§4), the search help (§5), and the ways to
 * send feedback and read the change log.
 */
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { TrackingIconLegend } from '../../../components/tracking/tracking-icons';
import { appConfig } from '../../../lib/config';
import { useProfile } from '../../../lib/profile';
import { SearchHelp } from '../components/search-help';
import { companyLinksFor } from '../components/company-links';
import '../help.css';

export default function InfoPage() {
  const { t } = useTranslation();
  const { organisation } = useProfile();
  const company = companyLinksFor(appConfig, organisation);
  return (
    <section className="page narrow-page help-page">
      <h1 className="page-title route-title">{t('routes.info')}</h1>
      <nav className="help-links" aria-label={t('help.linksLabel')}>
        {company.logoUrl && <img className="company-logo" src={company.logoUrl} alt={t('help.companyLogo', { organisation: organisation ?? '' })} />}
        {company.materialUrl && (
          <a className="button" href={company.materialUrl} target="_blank" rel="noopener noreferrer">
            {t('help.companyMaterial')}
          </a>
        )}
        {company.instructionsUrl && (
          <a className="button" href={company.instructionsUrl} target="_blank" rel="noopener noreferrer">
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
