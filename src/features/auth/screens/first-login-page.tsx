/** §4: firstLogin leads here once; the server is told it was seen, then the status monitor. */
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { sessionQueries, updateProfile } from '../../../lib/profile';
import { HOME_PATH } from '../../../lib/paths';
import { UserInfoLoading } from '../../../components/ui/user-info-loading';

export default function FirstLoginPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void updateProfile({ firstLogin: false })
      .then((profile) => queryClient.setQueryData(sessionQueries.profile().queryKey, profile))
      .catch((error: unknown) => {
        // Not fatal: show the app now and let the next start record it.
        console.warn('Could not record the first login', error);
        queryClient.setQueryData(sessionQueries.profile().queryKey, (old) => old && { ...old, firstLogin: false });
      })
      .finally(() => navigate(HOME_PATH, { replace: true }));
  }, [navigate, queryClient]);
  return <UserInfoLoading />;
}
