/**
 * What the stock screen shows, from the profile alone: the tab it opens on, whether "My stock"
 * can hold anything at all, and counts as numbers of the user's language.
 */
import type { Profile } from '../../../contract/user-api';
import { isSuperManager } from '../../../domain/permissions';
import { formatQuantity } from '../../../domain/quantity';
import { STOCK_TYPES, type StockType } from '../../../domain/stock';

/** What the server scopes each tab by (server/repositories/stock.ts stockScope). */
export type StockScopeProfile = Pick<Profile, 'permissions' | 'plants' | 'storageLocations' | 'workCenters' | 'plannerGroups'>;

/**
 * The tabs that can list something for this user: My stock their storage locations; My team
 * stock their work centers' and planner groups' (else, as the server, their own storage
 * locations); My plant stock their plants (a super manager's: every plant).
 */
export function stockTabsHeld(profile: StockScopeProfile): StockType[] {
  const held: Record<StockType, boolean> = {
    my_stock: profile.storageLocations.length > 0,
    my_team_stock: profile.workCenters.length > 0 || profile.plannerGroups.length > 0 || profile.storageLocations.length > 0,
    my_plant_stock: isSuperManager(profile.permissions) || profile.plants.length > 0,
  };
  return STOCK_TYPES.filter((type) => held[type]);
}

/**
 * The tab the screen shows: the address's, else My stock, else the first the user holds (a new
 * user with no storage location yet sees their team's or plant's stock, not an empty list).
 */
export function initialStockTab(requested: string | null, profile: StockScopeProfile): StockType {
  if ((STOCK_TYPES as readonly string[]).includes(requested ?? '')) return requested as StockType;
  return stockTabsHeld(profile)[0] ?? 'my_stock';
}

/** My stock of a user with no storage location attached: nothing to list, and the screen says why. */
export function lacksStorageLocation(type: StockType, profile: Pick<Profile, 'storageLocations'>): boolean {
  return type === 'my_stock' && profile.storageLocations.length === 0;
}

/** A count for a text: `count` picks the plural form, `value` is the number as the language writes it ("45,213"). */
export function countWords(count: number, language: string): { count: number; value: string } {
  return { count, value: formatQuantity(count, language) };
}
