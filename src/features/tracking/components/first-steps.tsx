/**
 * #19 item 23: an empty status monitor for an account with nothing to track yet says why and
 * what to expect, instead of a bare "No items found": a newly approved account holds no role
 * and no plant until a manager gives them, and sees only orders addressed to it until then.
 */
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Profile } from '../../../contract/user-api';

export function FirstSteps({ profile }: { profile: Pick<Profile, 'email' | 'permissions' | 'plants'> }) {
  const { t } = useTranslation();
  const hasNoAccess = profile.permissions.length === 0 && profile.plants.length === 0;
  return (
    // A long address must wrap on a phone instead of running out of the panel.
    <section className="panel first-steps" aria-labelledby="first-steps-title" style={{ overflowWrap: 'anywhere' }}>
      <h2 id="first-steps-title" className="section-title">
        {hasNoAccess ? t('tracking.firstSteps.titleNoAccess') : t('tracking.firstSteps.titleEmpty')}
      </h2>
      <p>
        {hasNoAccess
          ? t('tracking.firstSteps.noAccess')
          : t('tracking.firstSteps.noOrders', { plants: profile.plants.join(', ') || '–' })}
      </p>
      <p>{t('tracking.firstSteps.addressed', { email: profile.email })}</p>
      <p>{t('tracking.firstSteps.meanwhile')}</p>
      <ul>
        <li>
          <Link to="/user-profile">{t('tracking.firstSteps.profile')}</Link>
        </li>
        <li>
          <Link to="/info">{t('tracking.firstSteps.info')}</Link>
        </li>
        <li>
          <Link to="/feedback">{t('tracking.firstSteps.feedback')}</Link>
        </li>
      </ul>
    </section>
  );
}
