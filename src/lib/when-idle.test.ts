import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterLoadWhenIdle } from './when-idle';

/** A window and document with a load event and, where asked, an idle queue run by hand. */
function fakePage({ loaded, idle }: { loaded: boolean; idle: boolean }) {
  const listeners = new Set<() => void>();
  const idleQueue = new Map<number, () => void>();
  let nextId = 1;
  const page = {
    readyState: loaded ? 'complete' : 'loading',
    load() {
      page.readyState = 'complete';
      for (const listener of [...listeners]) listener();
      listeners.clear();
    },
    runIdle() {
      for (const [id, task] of [...idleQueue]) {
        idleQueue.delete(id);
        task();
      }
    },
    idleQueue,
  };
  vi.stubGlobal('document', { get readyState() { return page.readyState; } });
  vi.stubGlobal('window', {
    addEventListener: (type: string, listener: () => void) => type === 'load' && listeners.add(listener),
    removeEventListener: (type: string, listener: () => void) => type === 'load' && listeners.delete(listener),
    ...(idle
      ? {
          requestIdleCallback: (task: () => void) => {
            idleQueue.set(nextId, task);
            return nextId++;
          },
          cancelIdleCallback: (id: number) => idleQueue.delete(id),
        }
      : {}),
  });
  return page;
}

describe('afterLoadWhenIdle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('waits for the page to load, then for an idle moment', () => {
    const page = fakePage({ loaded: false, idle: true });
    const task = vi.fn();
    afterLoadWhenIdle(task);
    page.runIdle();
    expect(task).not.toHaveBeenCalled();
    page.load();
    expect(task).not.toHaveBeenCalled();
    page.runIdle();
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('on a page already loaded, runs at the next idle moment', () => {
    const page = fakePage({ loaded: true, idle: true });
    const task = vi.fn();
    afterLoadWhenIdle(task);
    expect(task).not.toHaveBeenCalled();
    page.runIdle();
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('never runs once cancelled, before or after the load', () => {
    const early = fakePage({ loaded: false, idle: true });
    const before = vi.fn();
    afterLoadWhenIdle(before)();
    early.load();
    early.runIdle();
    expect(before).not.toHaveBeenCalled();

    const after = vi.fn();
    const cancel = afterLoadWhenIdle(after);
    cancel();
    early.runIdle();
    expect(after).not.toHaveBeenCalled();
    expect(early.idleQueue.size).toBe(0);
  });

  it('without requestIdleCallback (Safari), runs a while after the load', () => {
    const page = fakePage({ loaded: false, idle: false });
    const task = vi.fn();
    afterLoadWhenIdle(task, { fallbackMs: 1000 });
    vi.advanceTimersByTime(5000);
    expect(task).not.toHaveBeenCalled();
    page.load();
    vi.advanceTimersByTime(999);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(task).toHaveBeenCalledTimes(1);
  });
});
