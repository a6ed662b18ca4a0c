/** A keyboard-wedge scanner in the browser, for the scan tests (#17). */
import type { Page } from '@playwright/test';

/**
 * A keyboard-wedge scan: each character as a keydown at the focused element, then Enter, within a
 * millisecond or two (several scans: codes separated by \n). As from a real scanner, a character
 * whose keydown nobody prevented lands in a focused field (the app takes it back out).
 */
export async function wedgeScan(page: Page, code: string) {
  await page.evaluate((text) => {
    // A line break in `text` is the Enter between two scans of one burst. The events are made
    // first: their time stamps are the scanner's (as the system's are), however long the page
    // then takes to handle each key.
    const keys = [...text, 'Enter'].map((char) => (char === '\n' ? 'Enter' : char));
    const events = keys.map((key) => [new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }), new KeyboardEvent('keyup', { key, bubbles: true, cancelable: true })] as const);
    for (const [down, up] of events) {
      const target = document.activeElement ?? document.body;
      const typed = target.dispatchEvent(down);
      const takesText = (target instanceof HTMLInputElement && ['text', 'search', 'tel', 'number', 'email', 'url'].includes(target.type)) || target instanceof HTMLTextAreaElement;
      if (typed && down.key.length === 1 && takesText) document.execCommand('insertText', false, down.key);
      target.dispatchEvent(up);
    }
  }, code);
}
