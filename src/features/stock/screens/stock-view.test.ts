/**
 * What the stock screen shows a user from their profile: a new user with no storage location
 * attached opens on the next tab they hold, and My stock says why it is empty; counts are numbers
 * of the user's language.
 */
import { describe, expect, it } from 'vitest';
import { countWords, initialStockTab, lacksStorageLocation, stockTabsHeld, type StockScopeProfile } from './stock-view';

const user = (changes: Partial<StockScopeProfile> = {}): StockScopeProfile => ({
  permissions: ['mechanic'],
  plants: [],
  storageLocations: [],
  workCenters: [],
  plannerGroups: [],
  ...changes,
});

describe('the stock tab the screen opens on', () => {
  it('is My stock for a user with a storage location', () => {
    expect(initialStockTab(null, user({ storageLocations: ['V001'], workCenters: ['WC1'], plants: ['1000'] }))).toBe('my_stock');
  });

  it('is the next tab the user holds when no storage location is attached', () => {
    expect(initialStockTab(null, user({ workCenters: ['WC1'], plants: ['1000'] }))).toBe('my_team_stock');
    expect(initialStockTab(null, user({ plannerGroups: ['PG1'] }))).toBe('my_team_stock');
    expect(initialStockTab(null, user({ plants: ['1000'] }))).toBe('my_plant_stock');
    expect(initialStockTab(null, user({ permissions: ['super_manager_read_only'] }))).toBe('my_plant_stock');
  });

  it('is My stock when the user holds none (the screen says why it is empty)', () => {
    expect(initialStockTab(null, user())).toBe('my_stock');
    expect(stockTabsHeld(user())).toEqual([]);
  });

  it('is the address’s tab when it names one', () => {
    expect(initialStockTab('my_stock', user({ plants: ['1000'] }))).toBe('my_stock');
    expect(initialStockTab('my_plant_stock', user({ storageLocations: ['V001'] }))).toBe('my_plant_stock');
    expect(initialStockTab('nonsense', user({ plants: ['1000'] }))).toBe('my_plant_stock');
  });
});

describe('My stock without a storage location', () => {
  it('is told apart from an empty list, on My stock only', () => {
    expect(lacksStorageLocation('my_stock', user())).toBe(true);
    expect(lacksStorageLocation('my_stock', user({ storageLocations: ['V001'] }))).toBe(false);
    expect(lacksStorageLocation('my_team_stock', user())).toBe(false);
    expect(lacksStorageLocation('my_plant_stock', user())).toBe(false);
  });
});

describe('a count for a text', () => {
  it('keeps the number for the plural form and writes it as the language does', () => {
    expect(countWords(45213, 'en-US')).toEqual({ count: 45213, value: '45,213' });
    expect(countWords(45213, 'de-DE')).toEqual({ count: 45213, value: '45.213' });
    expect(countWords(45213, 'fr-FR')).toEqual({ count: 45213, value: '45\u202f213' });
    expect(countWords(1, 'fi-FI')).toEqual({ count: 1, value: '1' });
  });
});
