/**
 * An error raised while a modal dialog is open is shown and announced inside the dialog: the
 * page behind a modal is inert (not announced) and a phone's bottom sheet covers the page's alert.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
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

describe('the global error alert and dialogs', () => {
  it('shows the alert inside an open dialog, under its title', () => {
    showError('The messages could not be cleared.');
    const html = dialog(true);
    expect(html).toMatch(/<dialog[^>]*>.*<h2 class="dialog-title">.*<\/h2><div class="error-alert in-dialog" role="alert">.*The messages could not be cleared\..*<\/dialog>/);
  });

  it('shows nothing in a closed dialog, nor in an open one without an error', () => {
    showError('The messages could not be cleared.');
    expect(dialog(false)).not.toContain('role="alert"');
    dismissError();
    expect(dialog(true)).not.toContain('role="alert"');
  });

  it('is not shown twice: the page’s alert stands down while a dialog hosts it, and the innermost dialog hosts it', () => {
    showError('Adding the material failed.');
    expect(renderToStaticMarkup(<ErrorAlert />)).toContain('Adding the material failed.');
    const leaveOuter = hostErrorAlert('outer');
    const leaveInner = hostErrorAlert('inner');
    expect(renderToStaticMarkup(<ErrorAlert />)).toBe('');
    expect(renderToStaticMarkup(<ErrorAlert dialogId="outer" />)).toBe('');
    expect(renderToStaticMarkup(<ErrorAlert dialogId="inner" />)).toContain('Adding the material failed.');
    leaveInner();
    expect(renderToStaticMarkup(<ErrorAlert dialogId="outer" />)).toContain('Adding the material failed.');
    leaveOuter();
    expect(renderToStaticMarkup(<ErrorAlert />)).toContain('Adding the material failed.');
  });
});
