/** The users of one tab: name and e-mail, status, roles and permissions, plants, last login, and the caller's actions. */
import { formatDate, formatDateTime } from '../../../lib/date-formats';
import { useTranslation } from 'react-i18next';
import type { UserRow } from '../../../contract/users';

export type UserAction = 'permissions' | 'notifications' | 'expiration' | 'history' | 'remove';

const ACTION_LABEL: Record<UserAction, string> = {
  permissions: 'users.actions.permissions',
  notifications: 'users.actions.notifications',
  expiration: 'users.actions.expiration',
  history: 'users.actions.history',
  remove: 'users.actions.remove',
};

export function UserStatus({ user }: { user: UserRow }) {
  const { t } = useTranslation();
  if (user.approvalStatus !== 'Approved') {
    return <span className={`status-pill ${user.approvalStatus === 'Rejected' ? 'danger' : 'warning'}`}>{t(`users.status.${user.approvalStatus}`)}</span>;
  }
  if (user.isExpired) return <span className="status-pill danger">{t('users.status.expired', { date: formatDate(user.expirationDate) })}</span>;
  if (user.expirationDate) return <span className="status-pill">{t('users.status.expires', { date: formatDate(user.expirationDate) })}</span>;
  return <span className="status-pill ok">{t('users.status.active')}</span>;
}

export function UserTable({ users, actions, onAction }: { users: UserRow[]; actions: UserAction[]; onAction: (action: UserAction, user: UserRow) => void }) {
  const { t } = useTranslation();
  return (
    <div className="table-wrap">
      <table className="data-table users-table">
        <caption className="visually-hidden">{t('users.tableCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('users.columns.user')}</th>
            <th scope="col">{t('users.columns.status')}</th>
            <th scope="col">{t('users.columns.permissions')}</th>
            <th scope="col">{t('users.columns.plants')}</th>
            <th scope="col">{t('users.columns.lastLogin')}</th>
            {actions.length > 0 && (
              <th scope="col">
                <span className="visually-hidden">{t('users.columns.actions')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.uid}>
              <td>
                <span className="strong">{user.displayName}</span>
                <span className="cell-sub">{user.email}</span>
              </td>
              <td data-label={t('users.columns.status')}>
                <UserStatus user={user} />
              </td>
              <td data-label={t('users.columns.permissions')}>
                {user.permissions.length === 0 ? (
                  <span className="muted">{t('users.noGrants')}</span>
                ) : (
                  <ul className="grant-list">
                    {user.permissions.map((grant) => (
                      <li key={grant}>{t(`users.grants.${grant}`, { defaultValue: grant })}</li>
                    ))}
                  </ul>
                )}
              </td>
              <td data-label={t('users.columns.plants')}>{user.plants.join(', ') || '–'}</td>
              <td data-label={t('users.columns.lastLogin')}>{user.lastLogin ? formatDateTime(user.lastLogin) : t('users.never')}</td>
              {actions.length > 0 && (
                <td className="user-actions">
                  <div className="user-actions-list">
                    {actions.map((action) => (
                      <button
                        key={action}
                        type="button"
                        className={`button small${action === 'remove' ? ' outline-danger' : ''}`}
                        aria-label={t(`${ACTION_LABEL[action]}For`, { name: user.displayName })}
                        onClick={() => onAction(action, user)}
                      >
                        {t(ACTION_LABEL[action])}
                      </button>
                    ))}
                  </div>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
