/**
 * An error raised while a modal dialog is open is shown and announced inside the dialog: the
 * page behind a modal is inert (not announced) and a phone's bottom sheet covers the page's alert.
 * An alert is announced once, and never in two places.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { useId } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dismissError, showError } from '../../lib/error-alert';
import { Dialog } from './dialog';
import { ErrorAlert, hostErrorAlert } from './error-alert';

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});
afterEach(dismissError);

const dialog = (open: boolean) =>
  renderToStaticMarkup(
    <Dialog open={open} title="Clear all important messages?" onClose={() => undefined}>
      <button type="button">Clear messages</button>
    </Dialog>,
  );

/** The id `Dialog` takes (useId at the root of a render is the same whatever the component). */
function rootId(): string {
  let id = '';
  function Probe() {
    id = useId();
    return null;
  }
  renderToStaticMarkup(<Probe />);
  return id;
}

const page = () => renderToStaticMarkup(<ErrorAlert />);

describe('the global error alert and dialogs', () => {
  it('shows an alert raised while a dialog is open inside it, under its title', () => {
    const leave = hostErrorAlert(rootId());
    try {
      showError('The messages could not be cleared.');
      const html = dialog(true);
      expect(html).toMatch(/<dialog[^>]*>.*<h2 class="dialog-title">.*<\/h2><div class="error-alert in-dialog" role="alert">.*The messages could not be cleared\..*<\/dialog>/);
      expect(page()).toBe('');
    } finally {
      leave();
    }
  });

  it('shows nothing in a closed dialog, nor in an open one without an error', () => {
    const leave = hostErrorAlert(rootId());
    try {
      showError('The messages could not be cleared.');
      expect(dialog(false)).not.toContain('role="alert"');
      dismissError();
      expect(dialog(true)).not.toContain('role="alert"');
    } finally {
      leave();
    }
  });

  it('on a dialog’s first render (before it is the host) only the page shows the alert', () => {
    showError('Saving failed.');
    expect(dialog(true)).not.toContain('Saving failed.');
    expect(renderToStaticMarkup(<ErrorAlert dialogId="opening" />)).toBe('');
    expect(page()).toContain('Saving failed.');
  });

  it('an alert already on the page when a dialog opens is not moved into it, nor announced again when it closes', () => {
    showError('The list could not be read.');
    expect(page()).toContain('role="alert"');
    const leave = hostErrorAlert('d');
    expect(renderToStaticMarkup(<ErrorAlert dialogId="d" />)).toBe('');
    expect(page()).toBe('');
    leave();
    const back = page();
    expect(back).toContain('The list could not be read.');
    expect(back).not.toContain('role=');
  });

  it('an alert the dialog showed is back on the page when it closes, not read out again; a new one is', () => {
    const leave = hostErrorAlert('d');
    showError('Sending failed.');
    expect(renderToStaticMarkup(<ErrorAlert dialogId="d" />)).toContain('role="alert"');
    leave();
    expect(page()).toContain('Sending failed.');
    expect(page()).not.toContain('role=');
    showError('Sending failed again.');
    expect(page()).toContain('role="alert"');
  });

  it('is not shown twice: the page’s alert stands down while a dialog hosts it, and the innermost dialog hosts it', () => {
    const leaveOuter = hostErrorAlert('outer');
    const leaveInner = hostErrorAlert('inner');
    showError('Adding the material failed.');
    expect(page()).toBe('');
    expect(renderToStaticMarkup(<ErrorAlert dialogId="outer" />)).toBe('');
    expect(renderToStaticMarkup(<ErrorAlert dialogId="inner" />)).toContain('Adding the material failed.');
    leaveInner();
    expect(renderToStaticMarkup(<ErrorAlert dialogId="outer" />)).toContain('Adding the material failed.');
    expect(page()).toBe('');
    leaveOuter();
    expect(page()).toContain('Adding the material failed.');
  });
});
