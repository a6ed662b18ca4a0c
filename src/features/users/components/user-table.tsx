/** The users of one tab: name and e-mail, status, roles and permissions, plants, last login, and the caller's actions. */
import { formatDate, formatDateTime } from '../../../lib/date-formats';
import { useTranslation } from 'react-i18next';
import type { UserRow } from '../../../contract/users';
import { MoreMenu } from '../../../components/ui/more-menu';

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

export function UserTable({
  users,
  actions,
  allows,
  onAction,
}: {
  users: UserRow[];
  actions: UserAction[];
  /** Whether an action applies to this row (e.g. another user's notification settings, not upwards). */
  allows?: (action: UserAction, user: UserRow) => boolean;
  onAction: (action: UserAction, user: UserRow) => void;
}) {
  const { t } = useTranslation();
  // #21: the first action the caller may take stays in sight; the others are in the row's "⋯" menu,
  // so a phone's row keeps one line of buttons.
  const [primary] = actions;
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
            {primary && (
              <th scope="col">
                <span className="visually-hidden">{t('users.columns.actions')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {users.map((user) => {
            const [first, ...more] = allows ? actions.filter((action) => allows(action, user)) : actions;
            return (
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
                <td className="user-last-login" data-label={t('users.columns.lastLogin')}>{user.lastLogin ? formatDateTime(user.lastLogin) : t('users.never')}</td>
                {primary && (
                  <td className="user-actions">
                    {first && (
                      <div className="user-actions-list">
                        <button
                          type="button"
                          className={`button small${first === 'remove' ? ' outline-danger' : ''}`}
                          aria-label={t(`${ACTION_LABEL[first]}For`, { name: user.displayName })}
                          onClick={() => onAction(first, user)}
                        >
                          {t(ACTION_LABEL[first])}
                        </button>
                        <MoreMenu
                          label={t('users.actions.moreFor', { name: user.displayName })}
                          items={more.map((action) => ({
                            key: action,
                            label: t(ACTION_LABEL[action]),
                            ariaLabel: t(`${ACTION_LABEL[action]}For`, { name: user.displayName }),
                            danger: action === 'remove',
                            onSelect: () => onAction(action, user),
                          }))}
                        />
                      </div>
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
