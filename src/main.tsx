import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { createQueryClient } from './lib/query-client';
import { initI18n, LANGUAGE_KEY } from './lib/i18n';
import { createRouter } from './app/router';
import { onUserExpired } from './lib/user-expired';
import './app/styles.css';

const queryClient = createQueryClient();
const router = createRouter();
// §8: 'User expired' on any call, not only the profile call.
onUserExpired(() => {
  if (router.state.location.pathname !== '/user-expired') void router.navigate('/user-expired', { replace: true });
});

await initI18n(localStorage.getItem(LANGUAGE_KEY) ?? navigator.language);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
