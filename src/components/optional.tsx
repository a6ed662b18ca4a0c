/**
 * A part of a screen that the screen works without (the camera scanner): if its code cannot load
 * (offline with the cache cleared, a chunk gone after a release) or it fails while drawing, it is
 * left out, and the screen around it stays — the route's error page would replace a whole count.
 */
import { Component, Suspense, type ReactNode } from 'react';

interface State {
  failed: boolean;
}

class Boundary extends Component<{ children: ReactNode; onFail?: () => void }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.warn('An optional part of the screen could not be shown', error);
    this.props.onFail?.();
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}

/** `children` in a Suspense of their own, and left out if they fail. */
export function Optional({ children, onFail }: { children: ReactNode; onFail?: () => void }) {
  return (
    <Boundary onFail={onFail}>
      <Suspense fallback={null}>{children}</Suspense>
    </Boundary>
  );
}
