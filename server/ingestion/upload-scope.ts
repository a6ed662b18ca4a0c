/**
 * Who may hand in which ERP file through the upload call, and which lines they may write
 * (#20, docs/decisions/0017). Files from the inbox folder come from the ERP system itself and are
 * trusted; an uploaded file writes with the uploader's rights (§6):
 *
 * - super_manager ("full read and write"): every file type, every plant.
 * - stock_admin: STOCK and ORDERS files, every line in one of the admin's own plants. An ORDERS
 *   line may not take over a service order of another plant, and its user_email (the mechanic who
 *   gets the order's delivery messages) must be empty, unchanged, or an approved user of that
 *   order's plant. Its ship_to_party must be empty, unchanged, or a ship-to-party of one of the
 *   admin's plants: holders of a ship-to-party number see its orders in any plant (§6).
 * - MATERIALS (one catalogue for every plant) and DELIVERIES (carrier scans that message the
 *   order's mechanic, outside a stock admin's §6 rights): super managers only.
 *
 * The same check runs twice: when the file is received (a 403 naming the lines, so nothing
 * out of scope is ever queued) and again in the transaction that applies it, against the
 * uploader's rights and the orders as they are then, so a grant withdrawn or an order moved in
 * between cannot let a line through.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf, type Db, type Tx } from '../db/client';
import { orders, shipToParties, userAttachments, userGrants, users } from '../db/schema';
import { can, writesEverywhere } from '../../src/domain/permissions';
import { notExpiredSql } from '../repositories/users';
import type { CsvRecord, LineError } from './csv';
import type { ErpFileType } from './formats';
import { coded, type Coded } from './coded';

type Executor = Db | Tx;

export interface Uploader {
  email: string;
  grants: readonly string[];
  /** Plants the uploader holds (§6 attachments, kind plant). */
  plants: readonly string[];
}

/** What an uploader may write with one file type: everything, the lines of some plants, or nothing. */
export type UploadScope =
  | { kind: 'everything' }
  | { kind: 'plants'; email: string; plants: ReadonlySet<string> }
  | { kind: 'refused'; reason: Coded };

/** File types a stock admin may upload, line by line within their own plants. */
const PLANT_SCOPED_TYPES: readonly ErpFileType[] = ['STOCK', 'ORDERS'];

const SUPER_MANAGER_ONLY: Record<Exclude<ErpFileType, 'STOCK' | 'ORDERS'>, Coded> = {
  MATERIALS: coded('erpMaterialsSuperManagerOnly', {}, 'A MATERIALS file changes the material catalogue of every plant: only a super manager may upload it.'),
  DELIVERIES: coded('erpDeliveriesSuperManagerOnly', {}, 'A DELIVERIES file records carrier scans and messages the mechanics of the orders: only a super manager may upload it.'),
};

/**
 * Messages name the uploader rather than saying "you": the same text answers the upload call and
 * stays on the file's dashboard row when the check at processing refuses it.
 */
export function uploadScopeOf(uploader: Uploader, fileType: ErpFileType): UploadScope {
  if (!can(uploader.grants, 'fileIngestion.upload')) return { kind: 'refused', reason: coded('erpUploadNotAllowed', { email: uploader.email }, `The roles of ${uploader.email} do not allow uploading ERP files.`) };
  if (writesEverywhere(uploader.grants)) return { kind: 'everything' };
  if (!PLANT_SCOPED_TYPES.includes(fileType)) return { kind: 'refused', reason: SUPER_MANAGER_ONLY[fileType as keyof typeof SUPER_MANAGER_ONLY] };
  if (uploader.plants.length === 0) {
    return { kind: 'refused', reason: coded('erpUploaderHoldsNoPlant', { email: uploader.email, fileType }, `${uploader.email} holds no plant, so may not upload a ${fileType} file.`) };
  }
  return { kind: 'plants', email: uploader.email, plants: new Set(uploader.plants) };
}

const text = (record: CsvRecord, column: string): string | null => {
  const value = record.values[column];
  return typeof value === 'string' && value !== '' ? value : null;
};

type PlantScope = Extract<UploadScope, { kind: 'plants' }>;

const plantList = (scope: PlantScope) => [...scope.plants].sort().join(', ');
const notYours = (line: number, plant: string, scope: PlantScope): LineError => ({
  line,
  ...coded('erpPlantNotYours', { plant, email: scope.email, plants: plantList(scope) }, `Plant ${plant} is not one of the plants of ${scope.email} (${plantList(scope)})`),
});

function stockLines(records: readonly CsvRecord[], scope: PlantScope): LineError[] {
  return records.filter((r) => !scope.plants.has(text(r, 'plant')!)).map((r) => notYours(r.line, text(r, 'plant')!, scope));
}

async function orderLines(db: Executor, records: readonly CsvRecord[], scope: PlantScope): Promise<LineError[]> {
  const { plants } = scope;
  const orderIds = [...new Set(records.map((r) => text(r, 'service_order')!))];
  const stored = new Map<string, { plant: string; userEmail: string | null; shipToParty: string | null }>();
  for (let i = 0; i < orderIds.length; i += 1000) {
    // Locked until the caller's transaction ends: no other file can move these orders between
    // this check and the write of the lines.
    const rows = await db
      .select({ id: orders.id, plant: orders.plant, userEmail: orders.userEmail, shipToParty: orders.shipToParty })
      .from(orders)
      .where(inArray(orders.id, orderIds.slice(i, i + 1000)))
      .for('update');
    for (const row of rows) stored.set(row.id, row);
  }
  // Named mechanics: approved users holding the plant of the line whose access has not expired
  // (an expired one would be sent the order's delivery messages), as "email/plant" (lower case).
  const named = [...new Set(records.map((r) => text(r, 'user_email')?.toLowerCase()).filter((e): e is string => !!e))];
  const members = new Set<string>();
  if (named.length > 0) {
    const rows = rowsOf<{ k: string }>(
      await db.execute(sql`
        select lower(users.email) || '/' || a.code as k
        from users join user_attachments a on a.user_id = users.id and a.kind = 'plant'
        where lower(users.email) in (select json_array_elements_text(${JSON.stringify(named)}::json)) and users.approval_status = 'Approved' and ${notExpiredSql()}`),
    );
    for (const row of rows) members.add(row.k);
  }
  // Ship-to-party numbers of the uploader's plants among those named; an unknown number, or one
  // without a plant, is not among them.
  const shipTo = [...new Set(records.map((r) => text(r, 'ship_to_party')).filter((c): c is string => !!c))];
  const ownShipTo = new Set<string>();
  for (let i = 0; i < shipTo.length; i += 1000) {
    const rows = await db
      .select({ code: shipToParties.code })
      .from(shipToParties)
      .where(and(inArray(shipToParties.code, shipTo.slice(i, i + 1000)), inArray(shipToParties.plant, [...plants])));
    for (const row of rows) ownShipTo.add(row.code);
  }
  const errors: LineError[] = [];
  for (const r of records) {
    const order = text(r, 'service_order')!;
    const plant = text(r, 'plant')!;
    const existing = stored.get(order);
    if (!plants.has(plant)) {
      errors.push(notYours(r.line, plant, scope));
      continue;
    }
    // Refused without naming the order's plant: another plant's order is none of the uploader's business.
    if (existing && !plants.has(existing.plant)) {
      const params = { serviceOrder: order, email: scope.email, plants: plantList(scope) };
      errors.push({ line: r.line, ...coded('erpOrderOutsidePlants', params, `Service order ${order} cannot be written in the plants of ${scope.email} (${plantList(scope)})`) });
      continue;
    }
    const email = text(r, 'user_email');
    if (email && email.toLowerCase() !== existing?.userEmail?.toLowerCase() && !members.has(`${email.toLowerCase()}/${plant}`)) {
      const message = `user_email ${email} is not an approved user of plant ${plant}; name a user of the order's plant, or leave it empty`;
      errors.push({ line: r.line, ...coded('erpUserNotOfPlant', { email, plant }, message) });
      continue;
    }
    // The holders of a ship-to-party number see its orders in any plant: another plant's number
    // would show this order, and its delivery address, to that plant's people. Unknown and
    // another plant's numbers get the same answer, so the refusal tells nothing about other plants.
    const stp = text(r, 'ship_to_party');
    if (stp && stp !== existing?.shipToParty && !ownShipTo.has(stp)) {
      const message = `ship_to_party ${stp} is not a ship-to-party number of the plants of ${scope.email} (${plantList(scope)}); name one of those plants' numbers, or leave it empty`;
      errors.push({ line: r.line, ...coded('erpShipToPartyOutside', { shipToParty: stp, email: scope.email, plants: plantList(scope) }, message) });
    }
  }
  return errors;
}

/**
 * The lines of an uploaded file its uploader may not write (empty when all are in scope); a
 * refusal of the whole file is one error without a line.
 */
export async function linesOutsideScope(db: Executor, uploader: Uploader, fileType: ErpFileType, records: readonly CsvRecord[]): Promise<LineError[]> {
  const scope = uploadScopeOf(uploader, fileType);
  if (scope.kind === 'everything') return [];
  if (scope.kind === 'refused') return [{ line: null, ...scope.reason }];
  return fileType === 'STOCK' ? stockLines(records, scope) : orderLines(db, records, scope);
}

/**
 * The uploader of a queued file as they are now (grants and plants), or a reason why they may no
 * longer write anything: removed, expired or not approved (coded, decision 0074).
 */
export async function currentUploader(db: Executor, email: string | null): Promise<Uploader | Coded> {
  if (!email) return coded('erpUploaderUnknown', {}, 'The file was uploaded without a known uploader; send it again.');
  const [user] = await db
    // Expired by the day of their plants, as the sign-in check judges it (notExpiredSql).
    .select({ id: users.id, email: users.email, approvalStatus: users.approvalStatus, active: notExpiredSql() })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  if (!user || user.approvalStatus !== 'Approved' || !user.active) {
    return coded('erpUploaderGone', { email }, `The uploader ${email} may no longer upload files (removed, expired or not approved).`);
  }
  const grants = await db.select({ id: userGrants.grantId }).from(userGrants).where(eq(userGrants.userId, user.id));
  const plants = await db
    .select({ code: userAttachments.code })
    .from(userAttachments)
    .where(and(eq(userAttachments.userId, user.id), eq(userAttachments.kind, 'plant')));
  return { email: user.email, grants: grants.map((g) => g.id), plants: plants.map((p) => p.code) };
}
