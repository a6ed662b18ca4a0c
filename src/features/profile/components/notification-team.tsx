/**
 * §6: supervisors, stock admins and super managers change the notification settings of the people
 * in their notification plants. Supervisors have no users screen: this list, on their own
 * notification settings, is their way to those people (the server lists whom its rule allows).
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/ui/load-error';
import { useNotificationTeam } from '../api/notification-settings';

export function NotificationTeam() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const team = useNotificationTeam(query, true);
  const search = (event: FormEvent) => {
    event.preventDefault();
    setQuery(draft.trim());
  };
  const people = team.data?.users ?? [];
  return (
    <section className="panel notification-team" aria-labelledby="notification-team-title">
      <h2 id="notification-team-title" className="section-title">
        {t('profile.teamTitle')}
      </h2>
      <p className="muted">{t('profile.teamHint')}</p>
      <form className="notification-team-search" role="search" onSubmit={search}>
        <label htmlFor="notification-team-query" className="visually-hidden">
          {t('profile.teamSearch')}
        </label>
        <input id="notification-team-query" type="search" value={draft} placeholder={t('profile.teamSearch')} onChange={(event) => setDraft(event.target.value)} />
        <button type="submit" className="button">
          {t('common.search')}
        </button>
      </form>
      {team.error && <LoadError error={team.error} />}
      {team.data && people.length === 0 && <p className="muted">{t('profile.teamEmpty')}</p>}
      {people.length > 0 && (
        <ul className="notification-team-list" aria-busy={team.isFetching}>
          {people.map((person) => (
            <li key={person.uid}>
              <Link to={`/notification-settings?uid=${person.uid}`} state={{ email: person.email, name: person.display_name }}>
                <span className="strong">{person.display_name}</span>
                <span className="muted small">{person.email}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {team.data?.has_more && <p className="muted small">{t('profile.teamMore', { n: people.length })}</p>}
    </section>
  );
}
