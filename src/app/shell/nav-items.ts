import { can, visibleNavEntries, type NavEntry } from '../../domain/permissions';
import type { Profile } from '../../contract/user-api';
import type { AllowedPlants } from '../../domain/permissions';
import { NAV_TARGETS } from '../routes';

export interface NavItem {
  entry: NavEntry;
  to: string;
  labelKey: string;
}

/** §2 shell entries, hidden by permission, in the spec's order. */
export function navItems(profile: Profile, allowedPlants: AllowedPlants): NavItem[] {
  return visibleNavEntries(profile.permissions, profile.plants, allowedPlants).map((entry) => ({
    entry,
    // Users who only see front-liner statistics land on that dashboard.
    to: entry === 'dashboard' && !can(profile.permissions, 'fileDashboard.read') ? '/frontliner-dashboard' : NAV_TARGETS[entry],
    labelKey: `nav.${entry}`,
  }));
}
