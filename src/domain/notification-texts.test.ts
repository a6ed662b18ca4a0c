/** #19 item 22: server-made notification texts, in every language, from one wording. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { interpolate, knownNotificationText, localParams, renderNotificationText, type NotificationTemplates, type NotificationText } from './notification-texts';

const LOCALES = ['cs-CZ', 'de-DE', 'en-US', 'es-ES', 'fi-FI', 'fr-FR', 'it-IT', 'pt-PT', 'sv-SE'];
const templatesOf = (locale: string) =>
  (JSON.parse(readFileSync(join(__dirname, '..', '..', 'locales', `${locale}.json`), 'utf8')) as { notifications: { text: NotificationTemplates } }).notifications.text;
const placeholders = (template: string) => [...template.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

const assigned: NotificationText = {
  key: 'stockCountAssigned',
  params: { id: 27, by: 'supervisor@example.com', storageLocation: '0001', plant: 'FI01', deadline: '2026-12-01' },
};

describe('notification texts', () => {
  it('words the English stored text as the server always did', () => {
    const en = templatesOf('en-US');
    expect(renderNotificationText(en, assigned)).toEqual({
      subject: 'Stock count #27 assigned to you',
      body: 'supervisor@example.com assigned stock count #27 of storage location 0001 in plant FI01 to you. Please count by 2026-12-01.',
    });
    expect(renderNotificationText(en, { ...assigned, params: { ...assigned.params, deadline: null } }).body).toBe(
      'supervisor@example.com assigned stock count #27 of storage location 0001 in plant FI01 to you.',
    );
    expect(
      renderNotificationText(en, { key: 'orderItemStatus', params: { order: '4001205401', line: 20, material: 'KM123', description: 'Door roller', status: 'OnTheWay' } }),
    ).toEqual({ subject: 'Order 4001205401: Door roller – OnTheWay', body: 'Item 20 of service order 4001205401 (KM123 Door roller) is now "OnTheWay".' });
    expect(renderNotificationText(en, { key: 'stockCountDue', params: { id: 5, storageLocation: '0002', plant: 'FI01', deadline: '2026-12-01' } }).subject).toBe(
      'Stock count #5 is due 2026-12-01',
    );
  });

  it.each(LOCALES)('%s has every template with the same placeholders as English', (locale) => {
    const en = templatesOf('en-US');
    const own = templatesOf(locale);
    expect(placeholders(own.countBy)).toEqual(placeholders(en.countBy));
    for (const key of ['stockCountAssigned', 'stockCountPartAssigned', 'stockCountDue', 'orderItemStatus'] as const) {
      expect(placeholders(own[key].subject), `${locale} ${key}.subject`).toEqual(placeholders(en[key].subject));
      expect(placeholders(own[key].body), `${locale} ${key}.body`).toEqual(placeholders(en[key].body));
    }
  });

  it('renders a part of a split count (#18), with the deadline sentence', () => {
    const part: NotificationText = { key: 'stockCountPartAssigned', params: { id: 9, by: 'supervisor@example.com', storageLocation: 'V001', plant: 'FI01', deadline: '2026-12-01', lines: 3 } };
    expect(renderNotificationText(templatesOf('en-US'), part)).toEqual({
      subject: 'Part of stock count #9 assigned to you',
      body: 'supervisor@example.com assigned you a part of stock count #9 of storage location V001 in plant FI01 (lines to count: 3). Please count by 2026-12-01.',
    });
    expect(knownNotificationText({ key: 'stockCountPartAssigned', params: { id: 9, by: 'x', storageLocation: 'V001', plant: 'FI01' } })).toBeNull();
  });

  it('renders German, and treats markup in parameters as text', () => {
    const words = renderNotificationText(templatesOf('de-DE'), { ...assigned, params: { ...assigned.params, by: '<b>x</b>' } });
    expect(words.subject).toBe('Inventur Nr. 27 wurde Ihnen zugewiesen');
    expect(words.body).toContain('<b>x</b> hat Ihnen die Inventur Nr. 27');
  });

  it('knows a text only with a known key and its parameters', () => {
    expect(knownNotificationText(assigned)).toEqual(assigned);
    expect(knownNotificationText({ key: 'somethingNew', params: {} })).toBeNull();
    expect(knownNotificationText({ key: 'stockCountDue', params: { id: 1, storageLocation: '0001', plant: 'FI01' } })).toBeNull();
    expect(knownNotificationText(null)).toBeNull();
    expect(interpolate('{{a}}-{{ b }}-{{c}}', { a: 1, b: 'x', c: null })).toBe('1-x-');
  });

  it('writes a transfer’s quantity as a number of the reader’s language (in-app, push, e-mail, SMS)', () => {
    const done: NotificationText = { key: 'stockTransferDone', params: { material: 'KM100', quantity: 1.5, from: 'V001', to: '0001', plant: 'FI01', by: 'stock.admin@example.com' } };
    const wording = (language?: string) => ({ status: (status: string) => status, deadline: (deadline: string) => deadline, ...(language ? { language } : {}) });
    expect(renderNotificationText(templatesOf('de-DE'), done, localParams(done, wording('de-DE'))).body).toContain('1,5 × KM100');
    expect(renderNotificationText(templatesOf('fr-FR'), done, localParams(done, wording('fr-FR'))).body).toContain('1,5 × KM100');
    expect(renderNotificationText(templatesOf('fi-FI'), done, localParams(done, wording('fi-FI'))).body).toContain('1,5 × KM100');
    expect(renderNotificationText(templatesOf('en-US'), done, localParams(done, wording('en-US'))).body).toContain('1.5 × KM100');
    const many: NotificationText = { key: 'stockTransferRequested', params: { id: 'r1', name: 'Mikko', by: 'mechanic@example.com', material: 'KM100', quantity: 1250.25, from: 'V001', to: '0001', plant: 'FI01' } };
    expect(localParams(many, wording('de-DE')).quantity).toBe('1.250,25');
    expect(localParams(many, wording('en-US')).quantity).toBe('1,250.25');
    // Without a language (an older caller) the quantity stays as stored; the stored English is never localised.
    expect(localParams(done, wording()).quantity).toBe(1.5);
    expect(renderNotificationText(templatesOf('en-US'), done).body).toContain('1.5 × KM100');
    // Other texts are as they were: a deadline and a status in the language.
    expect(localParams(assigned, { ...wording('de-DE'), deadline: () => '1. Dezember 2026' }).deadline).toBe('1. Dezember 2026');
  });
});
