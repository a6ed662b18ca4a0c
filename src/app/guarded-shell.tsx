/** The guard and the shell, in their own chunk: the landing page does not need them. */
import { RequireProfile } from './guard';
import { Shell } from './shell/shell';

export default function GuardedShell() {
  return (
    <RequireProfile>
      <Shell />
    </RequireProfile>
  );
}
