/**
 * The app (router, TanStack Query, guard, shell): loaded at once for a signed-in start, and by the
 * landing page as soon as a sign-in starts. Creating the router starts the current route's
 * chunks and data (router.tsx) before the texts are ready, so all of it loads in parallel.
 */
import { StrictMode, startTransition } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { watchFirstScreen } from '../lib/after-first-screen';
import { createQueryClient } from '../lib/query-client';
import { initI18n, LANGUAGE_KEY } from '../lib/i18n';
import { onUserExpired } from '../lib/user-expired';
import { onUserChangedElsewhere } from '../lib/auth/session';
import { nextTask } from '../lib/next-task';
import { refetchDeviceCopiesOnReconnect } from '../offline/reconnect';
import { createRouter } from './router';

export async function startApp(given?: Root): Promise<void> {
  const queryClient = createQueryClient();
  // What the first screen does not need waits until it is drawn (#22).
  watchFirstScreen(queryClient);
  // Back online, screens showing the device's copy read the server again (also after an offline start).
  refetchDeviceCopiesOnReconnect(queryClient);
  const router = createRouter(queryClient);
  // Another tab signed out or in as someone else: nothing cached here is the next user's.
  onUserChangedElsewhere(() => queryClient.clear());
  // §8: 'User expired' on any call, not only the profile call.
  onUserExpired(() => {
    if (router.state.location.pathname !== '/user-expired') void router.navigate('/user-expired', { replace: true });
  });
  // The start is cut into tasks, none of them long on a mid-range phone (#22: total blocking
  // time): the router (which has started the screen's chunks and calls), the texts, React's root.
  await nextTask();
  await initI18n(localStorage.getItem(LANGUAGE_KEY) ?? navigator.language, { full: true });
  await nextTask();
  const root = given ?? createRoot(document.getElementById('root')!);
  // A transition: React renders the first screen in slices of a few milliseconds, so a phone's
  // main thread is never blocked for the whole render (#22: total blocking time).
  startTransition(() =>
    root.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
}
