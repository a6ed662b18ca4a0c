/**
 * The priority editor offline: it stays open with what was typed (it vanished with the connection)
 * and only its Save is off, saying why.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeAll, describe, expect, it } from 'vitest';
import type { UapInfo } from '../../../contract/priority';
import { PriorityEditor, PriorityList } from './priority-list';

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

const INFO: UapInfo = { accessPointId: 'FI-AP-1', name: 'Kiosk', address: 'Street 1', postalCode: '00100', city: 'Helsinki', country: 'FI', priority: 3, isEnabled: true };

const withClient = (node: React.ReactNode) => renderToStaticMarkup(<QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>);
const editor = (online: boolean) => withClient(<PriorityEditor shipToPartyCode="0050010001" info={INFO} online={online} onDone={() => undefined} />);
const save = (html: string) => /<button type="submit"[^>]*>/.exec(html)?.[0] ?? '';

describe('the priority editor', () => {
  it('offline keeps its fields and Cancel, turns Save off and says nothing is saved', () => {
    const html = editor(false);
    expect(html).toMatch(/<input type="number"[^>]*value="3"/);
    expect(save(html)).toMatch(/disabled=""[^>]*aria-describedby="offline-0050010001-FI-AP-1"/);
    expect(html).toContain(`id="offline-0050010001-FI-AP-1" class="field-error">${i18next.t('priority.editOffline')}<`);
    expect(html).toMatch(/<button type="button" class="button small ghost">Cancel<\/button>/);
  });

  it('online saves as before', () => {
    const html = editor(true);
    expect(save(html)).not.toContain('disabled');
    expect(html).not.toContain('offline-');
  });

  it('keeps the Change column of numbers the user writes offline too (an open editor lives in it)', () => {
    const entry = { shipToPartyCode: '0050010001', shipToPartyName: 'Shop', shipToPartyAddress: 'Street 1', uapinfos: [INFO] };
    expect(withClient(<PriorityList items={[entry]} canWrite online={false} />)).toContain('Change the priority of Kiosk');
  });
});
