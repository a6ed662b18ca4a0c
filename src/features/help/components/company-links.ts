/**
 * §6: the company-only material link, logo and instructions link show only to the configured
 * organisation (VITE_COMPANY_ORGANISATION, compared with the profile's organisation). With no
 * organisation configured the deployment serves one company, and everyone sees what is configured
 * (the rule the instructions link already followed). Each is shown only when its URL is set.
 */
export interface CompanyConfig {
  companyOrganisation: string | null;
  instructionsUrl: string | null;
  materialUrl: string | null;
  logoUrl: string | null;
}

export interface CompanyLinks {
  instructionsUrl: string | null;
  materialUrl: string | null;
  logoUrl: string | null;
}

export function companyLinksFor(config: CompanyConfig, organisation: string | null): CompanyLinks {
  const isMember = config.companyOrganisation === null || config.companyOrganisation === organisation?.trim();
  if (!isMember) return { instructionsUrl: null, materialUrl: null, logoUrl: null };
  return { instructionsUrl: config.instructionsUrl, materialUrl: config.materialUrl, logoUrl: config.logoUrl };
}
