import { describe, expect, it } from 'vitest';
import { resolveLocale, retryDelayMs, MESSAGES } from './constants';
import { checkEmail, DEFAULT_ALLOWED_DOMAINS, emailDomain, initials } from './email';

describe('§1 locales', () => {
  it.each([
    ['de-DE', 'de-DE'],
    ['de', 'de-DE'],
    ['pt-BR', 'pt-PT'],
    ['sv_SE', 'sv-SE'],
    ['ja-JP', 'en-US'],
    ['', 'en-US'],
    [null, 'en-US'],
  ])('%s → %s', (input, expected) => {
    expect(resolveLocale(input)).toBe(expected);
  });
});

describe('§5 retry waits', () => {
  it('waits 20, 400 and 8000 ms as the remaining tries go 3, 2, 1', () => {
    expect([3, 2, 1].map(retryDelayMs)).toEqual([20, 400, 8000]);
  });
});

describe('§5 e-mail', () => {
  it('accepts allowed domains with surrounding spaces, case-insensitively', () => {
    expect(checkEmail('  Jane.Doe+x@Lift.Example ', DEFAULT_ALLOWED_DOMAINS)).toEqual({ ok: true, email: 'jane.doe+x@lift.example' });
  });
  it('refuses other domains with the domain in the message', () => {
    expect(checkEmail('jane@gmail.com', DEFAULT_ALLOWED_DOMAINS)).toEqual({ ok: false, message: 'Email domain gmail.com not supported' });
  });
  it.each(['jane', 'jane@@example.com', '@example.com', 'ja ne@example.com', 'jane@'])('refuses %s with the format message', (value) => {
    expect(checkEmail(value, DEFAULT_ALLOWED_DOMAINS)).toEqual({ ok: false, message: MESSAGES.emailFormat });
  });
  it('reads the domain of an address', () => {
    expect(emailDomain('a@B.example')).toBe('b.example');
    expect(emailDomain('nothing')).toBe('');
  });
});

describe('avatar initials', () => {
  it.each([
    ['Maria Manager', 'MM'],
    ['Jean-Luc Picard', 'JP'],
    ['mechanic@example.com', 'M'],
    ['stock.admin@example.com', 'SA'],
    ['', '?'],
  ])('%s → %s', (input, expected) => {
    expect(initials(input)).toBe(expected);
  });
});
