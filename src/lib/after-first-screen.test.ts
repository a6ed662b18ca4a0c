/** What the first screen does not need waits until it is drawn (#22). */
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as GateModule from './after-first-screen';

type Gate = typeof GateModule;

let gate: Gate;
let page: EventTarget;
let doc: EventTarget & { visibilityState: string };

beforeEach(async () => {
  // The gate opens once per page: every test starts with a new page and a new module.
  vi.resetModules();
  vi.useFakeTimers();
  page = new EventTarget();
  vi.stubGlobal('window', page);
  doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  vi.stubGlobal('document', doc);
  vi.stubGlobal('requestAnimationFrame', (task: () => void) => setTimeout(task, 16));
  gate = await import('./after-first-screen');
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function answer<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

describe('the first screen gate', () => {
  it('opens after a paint once the screen has mounted and its queries have answered, not before', async () => {
    const client = new QueryClient();
    gate.watchFirstScreen(client);
    const waiting = vi.fn();
    void gate.afterFirstScreen().then(waiting);
    const profile = answer<string>();
    const list = answer<string>();
    void client.fetchQuery({ queryKey: ['profile'], queryFn: () => profile.promise });
    await vi.advanceTimersByTimeAsync(100);
    profile.resolve('me');
    // The profile has come and nothing fetches, but no screen is there yet (the guard's turn).
    await vi.advanceTimersByTimeAsync(100);
    expect(gate.isFirstScreenDrawn()).toBe(false);

    void client.fetchQuery({ queryKey: ['list'], queryFn: () => list.promise });
    gate.firstScreenMounted();
    await vi.advanceTimersByTimeAsync(100);
    expect(gate.isFirstScreenDrawn()).toBe(false);

    list.resolve('orders');
    await vi.advanceTimersByTimeAsync(0);
    expect(gate.isFirstScreenDrawn()).toBe(false);
    await vi.advanceTimersByTimeAsync(20);
    expect(gate.isFirstScreenDrawn()).toBe(true);
    expect(waiting).toHaveBeenCalledOnce();
  });

  it('does not open when another fetch has started by the paint', async () => {
    const client = new QueryClient();
    gate.watchFirstScreen(client);
    gate.firstScreenMounted();
    const first = answer<string>();
    const second = answer<string>();
    void client.fetchQuery({ queryKey: ['first'], queryFn: () => first.promise });
    first.resolve('a');
    await vi.advanceTimersByTimeAsync(0);
    void client.fetchQuery({ queryKey: ['second'], queryFn: () => second.promise });
    await vi.advanceTimersByTimeAsync(50);
    expect(gate.isFirstScreenDrawn()).toBe(false);
    second.resolve('b');
    await vi.advanceTimersByTimeAsync(50);
    expect(gate.isFirstScreenDrawn()).toBe(true);
  });

  it('opens after a paint when the screen mounts with its data already there', async () => {
    const client = new QueryClient();
    gate.watchFirstScreen(client);
    await client.fetchQuery({ queryKey: ['list'], queryFn: async () => 'orders' });
    await vi.advanceTimersByTimeAsync(100);
    expect(gate.isFirstScreenDrawn()).toBe(false);
    gate.firstScreenMounted();
    await vi.advanceTimersByTimeAsync(20);
    expect(gate.isFirstScreenDrawn()).toBe(true);
  });

  it('opens at the first touch or key, whatever is still fetching', async () => {
    const client = new QueryClient();
    gate.watchFirstScreen(client);
    void client.fetchQuery({ queryKey: ['slow'], queryFn: () => new Promise(() => undefined) });
    await vi.advanceTimersByTimeAsync(100);
    expect(gate.isFirstScreenDrawn()).toBe(false);
    page.dispatchEvent(new Event('pointerdown'));
    expect(gate.isFirstScreenDrawn()).toBe(true);
  });

  it('opens when the page is hidden, so waiting copies are written while it can write', async () => {
    gate.watchFirstScreen(new QueryClient());
    doc.dispatchEvent(new Event('visibilitychange'));
    expect(gate.isFirstScreenDrawn()).toBe(false);
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    expect(gate.isFirstScreenDrawn()).toBe(true);
  });

  it('opens after the longest wait when the screen never settles, and tells its listeners once', async () => {
    const client = new QueryClient();
    const listener = vi.fn();
    gate.onFirstScreenDrawn(listener);
    gate.watchFirstScreen(client);
    void client.fetchQuery({ queryKey: ['slow'], queryFn: () => new Promise(() => undefined) });
    await vi.advanceTimersByTimeAsync(gate.FIRST_SCREEN_MAX_WAIT_MS - 1);
    expect(gate.isFirstScreenDrawn()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(gate.isFirstScreenDrawn()).toBe(true);
    page.dispatchEvent(new Event('keydown'));
    expect(listener).toHaveBeenCalledOnce();
    // Once open it stays open: what asks later gets it at once.
    const later = vi.fn();
    await gate.afterFirstScreen().then(later);
    expect(later).toHaveBeenCalledOnce();
  });
});
