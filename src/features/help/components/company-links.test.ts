import { describe, expect, it } from 'vitest';
import { companyLinksFor, type CompanyConfig } from './company-links';

const config: CompanyConfig = {
  companyOrganisation: 'Lift Service Finland Oy',
  instructionsUrl: 'https://intra.example/instructions',
  materialUrl: 'https://intra.example/material',
  logoUrl: '/company-logo.svg',
};

describe('company-only links (§6)', () => {
  it('shows the material link, the logo and the instructions to the configured organisation', () => {
    expect(companyLinksFor(config, 'Lift Service Finland Oy')).toEqual({
      instructionsUrl: 'https://intra.example/instructions',
      materialUrl: 'https://intra.example/material',
      logoUrl: '/company-logo.svg',
    });
  });

  it('shows none of them to another organisation or to a profile without one', () => {
    const none = { instructionsUrl: null, materialUrl: null, logoUrl: null };
    expect(companyLinksFor(config, 'Lift Service Deutschland GmbH')).toEqual(none);
    expect(companyLinksFor(config, null)).toEqual(none);
  });

  it('shows only what is configured', () => {
    expect(companyLinksFor({ ...config, materialUrl: null, logoUrl: null }, 'Lift Service Finland Oy')).toEqual({
      instructionsUrl: 'https://intra.example/instructions',
      materialUrl: null,
      logoUrl: null,
    });
  });

  it('shows what is configured to everyone when no organisation is configured (one-company deployment)', () => {
    expect(companyLinksFor({ ...config, companyOrganisation: null }, 'Anyone GmbH').materialUrl).toBe('https://intra.example/material');
  });
});
