/** Which priority uploads can do anything for the user, before a file is chosen. */
import { writesEverywhere } from '../../../domain/permissions';
import type { PriorityUploadKind } from '../../../domain/priority';

/**
 * Whether an upload of `kind` is bound to fail for want of ship-to-party numbers: priorities are
 * changed only at numbers one holds (the super manager: every number; decision 0065), so a user
 * holding none (PM_upload_add / _disable alone) had every row refused as "unknown or not one of
 * yours". Adding ship-to-party numbers (PM_write) is how one gets some: never blocked.
 */
export function uploadNeedsNumbers(kind: PriorityUploadKind, grants: readonly string[], held: readonly string[]): boolean {
  return kind !== 'shipToParty' && !writesEverywhere(grants) && held.length === 0;
}
