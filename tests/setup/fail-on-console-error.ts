/**
 * Unit tests fail on an unexpected console.error (as epic-stack does): React warnings, failed
 * renders and swallowed promise rejections all surface there, and a test that passes while
 * printing one hides a defect. A test that expects an error says so first:
 *
 *   import { allowConsoleError } from '../../tests/setup/fail-on-console-error';
 *   const errors = allowConsoleError(); … expect(errors()).toEqual([...]);
 */
import { afterEach, beforeEach, vi, type MockInstance } from 'vitest';

let spy: MockInstance<typeof console.error> | null = null;
let calls: unknown[][] = [];
let isAllowed = false;

beforeEach(() => {
  calls = [];
  isAllowed = false;
  const original = console.error.bind(console);
  spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    calls.push(args);
    if (!isAllowed) original(...args);
  });
});

afterEach(() => {
  spy?.mockRestore();
  spy = null;
  if (isAllowed || calls.length === 0) return;
  const first = calls[0]!.map((part) => (part instanceof Error ? part.stack ?? part.message : String(part))).join(' ');
  throw new Error(`console.error was called ${calls.length} time(s) during this test; the first: ${first.slice(0, 2000)}`);
});

/** This test expects console.error: it is kept quiet and not a failure. Returns what was logged so far. */
export function allowConsoleError(): () => unknown[][] {
  isAllowed = true;
  return () => calls;
}
