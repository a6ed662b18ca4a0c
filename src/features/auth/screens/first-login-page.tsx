/** §4: firstLogin leads here once; the server is told it was seen (and the language the app was shown in), then the status monitor. */
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LOCALES } from '../../../domain/constants';
import { saveProfile, sessionQueries } from '../../../lib/profile';
import { HOME_PATH } from '../../../lib/paths';
import { UserInfoLoading } from '../../../components/ui/user-info-loading';

export default function FirstLoginPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { i18n } = useTranslation();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // A new account starts in the language the app was shown in (the device's, or the one picked
    // on the sign-in page), not in the server's default: a German mechanic's app stays German.
    const current = queryClient.getQueryData(sessionQueries.profile().queryKey);
    const shown = LOCALES.find((locale) => locale === i18n.language);
    const locale = current && !current.isLocaleLocked && shown && shown !== current.locale ? shown : undefined;
    // Saved to the device's copy too: an offline start right after reads the language chosen here.
    void saveProfile(queryClient, { firstLogin: false, ...(locale ? { locale } : {}) })
      .catch((error: unknown) => {
        // Not fatal: show the app now and let the next start record it (the server still says
        // firstLogin). In the language shown: the session's copy keeping the server's default
        // would switch the app to it, and the next start would find nothing left to record.
        console.warn('Could not record the first login', error);
        queryClient.setQueryData(sessionQueries.profile().queryKey, (old) => old && { ...old, firstLogin: false, ...(locale ? { locale } : {}) });
      })
      .finally(() => navigate(HOME_PATH, { replace: true }));
  }, [i18n, navigate, queryClient]);
  return <UserInfoLoading />;
}
