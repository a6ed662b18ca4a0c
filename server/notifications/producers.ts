/**
 * Events this feature produces itself. Other producers (ERP delivery status changes, stock-count
 * assignment edits) call emitNotifications directly; these helpers keep the wording in one place.
 */
import { eq } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { users } from '../db/schema';
import { emitNotifications, type EmitResult } from './emit';

interface AssignedCount {
  id: number;
  plant: string;
  storageLocation: string;
  conductedBy: string | null;
  shouldBeDoneAt: string | null;
  isDraft: boolean;
  createdBy: string;
}

/** A sent (not draft) stock count with a person counting tells that person (key inventory_count_notification). */
export async function notifyStockCountAssigned(tx: Tx, count: AssignedCount): Promise<EmitResult | null> {
  if (count.isDraft || !count.conductedBy) return null;
  const [counter] = await tx.select({ id: users.id }).from(users).where(eq(users.email, count.conductedBy.toLowerCase()));
  if (!counter) return null;
  const deadline = count.shouldBeDoneAt ? ` Please count by ${count.shouldBeDoneAt}.` : '';
  return emitNotifications(tx, {
    key: 'inventory_count_notification',
    userIds: [counter.id],
    subject: `Stock count #${count.id} assigned to you`,
    body: `${count.createdBy} assigned stock count #${count.id} of storage location ${count.storageLocation} in plant ${count.plant} to you.${deadline}`,
    link: `/mechanic-view/${count.id}`,
    plantCode: count.plant,
  });
}
