import { expect, type Page } from '@playwright/test';

/** Sign in through the landing page as a demo account, the way a person does. */
export async function login(page: Page, email: string): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: new RegExp(email.replace(/[.]/g, '\\.')) }).click();
  await expect(page).not.toHaveURL(/\/$/);
}

/** The labels of the main navigation, in order. */
export async function navLabels(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav).toBeVisible();
  return (await nav.getByRole('link').allInnerTexts()).map((text) => text.trim());
}
