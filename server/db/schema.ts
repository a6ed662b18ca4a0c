/**
 * The one schema for PGlite (embedded default) and PostgreSQL (DATABASE_URL).
 * Every entity of spec §3 has its home here, so later features add endpoints, not tables.
 * Migrations are generated from this file with `npm run db:generate` and committed.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

// ───────────────────────────── users, roles, attachments ─────────────────────────────

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    displayName: text('display_name').notNull(),
    licensed: boolean('licensed').notNull().default(true),
    organisation: text('organisation'),
    locale: text('locale').notNull().default('en-US'),
    isLocaleLocked: boolean('is_locale_locked').notNull().default(false),
    phoneNumber: text('phone_number'),
    /** Last day the account is valid; after it every call answers 403 "User expired". */
    expirationDate: date('expiration_date'),
    firstLogin: boolean('first_login').notNull().default(true),
    /** Pending until a support manager approves the request (§1); only Approved users see data. */
    approvalStatus: text('approval_status').notNull().default('Pending'),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_uq').on(t.email),
    check('users_approval_status_ck', sql`${t.approvalStatus} in ('Pending','Approved','Rejected')`),
  ],
);

/** One row per identity provider account (issuer + subject) bound to a user. */
export const userIdentities = pgTable(
  'user_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index('user_identities_user_idx').on(t.userId)],
);

/** The grant catalogue of §6 (roles and permissions), served by /constants/permissions. */
export const grants = pgTable('grants', {
  id: text('id').primaryKey(),
  kind: text('kind').notNull(), // 'role' | 'permission'
  label: text('label').notNull(),
  description: text('description').notNull(),
});

export const userGrants = pgTable(
  'user_grants',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    grantId: text('grant_id')
      .notNull()
      .references(() => grants.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.grantId] })],
);

export const plants = pgTable('plants', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  country: text('country').notNull(),
  city: text('city').notNull(),
  timezone: text('timezone').notNull(),
});

export const storageLocations = pgTable(
  'storage_locations',
  {
    plant: text('plant')
      .notNull()
      .references(() => plants.code),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** Mechanic van stock belongs to one work center; warehouse stock to none. */
    workCenter: text('work_center'),
  },
  (t) => [primaryKey({ columns: [t.plant, t.code] })],
);

export const workCenters = pgTable(
  'work_centers',
  {
    plant: text('plant')
      .notNull()
      .references(() => plants.code),
    code: text('code').notNull(),
    name: text('name').notNull(),
    plannerGroup: text('planner_group'),
  },
  (t) => [primaryKey({ columns: [t.plant, t.code] })],
);

export const plannerGroups = pgTable(
  'planner_groups',
  {
    plant: text('plant')
      .notNull()
      .references(() => plants.code),
    code: text('code').notNull(),
    name: text('name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.plant, t.code] })],
);

export const shipToParties = pgTable('ship_to_parties', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  plant: text('plant').references(() => plants.code),
  country: text('country').notNull(),
  address: text('address').notNull(),
});

/**
 * Attachments of §6 (plants, planner groups, work centers, storage locations, ship-to-party
 * numbers, managed ship-to-party numbers). `plant` is '' for kinds that are not per plant.
 */
export const userAttachments = pgTable(
  'user_attachments',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    plant: text('plant').notNull().default(''),
    code: text('code').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind, t.plant, t.code] }),
    index('user_attachments_lookup_idx').on(t.kind, t.plant, t.code),
    check(
      'user_attachments_kind_ck',
      sql`${t.kind} in ('plant','planner_group','work_center','storage_location','ship_to_party','managed_ship_to_party')`,
    ),
  ],
);

export const approvalRequests = pgTable(
  'approval_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestingUserId: uuid('requesting_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestingUserEmail: text('requesting_user_email').notNull(),
    managerEmail: text('manager_email').notNull(),
    approvalStatus: text('approval_status').notNull().default('Pending'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('approval_requests_status_idx').on(t.approvalStatus),
    check('approval_requests_status_ck', sql`${t.approvalStatus} in ('Pending','Approved','Rejected')`),
  ],
);

/** §3 allowed plants: four lists, one row per (list, plant). */
export const allowedPlants = pgTable(
  'allowed_plants',
  {
    parameter: text('parameter').notNull(),
    plant: text('plant')
      .notNull()
      .references(() => plants.code),
  },
  (t) => [
    primaryKey({ columns: [t.parameter, t.plant] }),
    check(
      'allowed_plants_parameter_ck',
      sql`${t.parameter} in ('notifications_allowed_plants','stock_count_allowed_plants','count_deadline_allowed_plants','show_zero_stock_material_plants')`,
    ),
  ],
);

// ───────────────────────────── materials, orders, parcels ─────────────────────────────

export const materials = pgTable(
  'materials',
  {
    code: text('code').primaryKey(),
    descriptionEnglish: text('description_english').notNull(),
    unit: text('unit').notNull(),
    materialGroup: text('material_group'),
  },
  // Stock search (§5) matches `ilike '%term%'` on both: trigram indexes (pg_trgm, migration 0005)
  // with a small pending list (64 kB, not 4 MB): every search reads it, and PGlite has no
  // autovacuum to merge it; writes still batch their entries.
  (t) => [
    index('materials_code_trgm_idx').using('gin', t.code.op('gin_trgm_ops')).with({ gin_pending_list_limit: 64 }),
    index('materials_description_trgm_idx').using('gin', t.descriptionEnglish.op('gin_trgm_ops')).with({ gin_pending_list_limit: 64 }),
  ],
);

/**
 * The free-text columns of §5 joined by a unit separator (which a search term never contains), so
 * one `ilike '%term%'` tests all of them and no match spans two columns. orders.search_text is
 * these texts of an order and its items (migration 0020's order_own_search_text() and
 * order_item_search_text() write the same joins in SQL; tests/server/tracking-counts.test.ts
 * compares them).
 */
const SEARCH_SEPARATOR = sql.raw(`E'\\x1f'`);
const joinedText = (columns: AnyPgColumn[]) =>
  sql.join(
    columns.map((column) => sql`coalesce(${column}, '')`),
    sql` || ${SEARCH_SEPARATOR} || `,
  );
export function searchTextOfItem(t: {
  materialCode: AnyPgColumn;
  materialDescription: AnyPgColumn;
  reservationDocNumber: AnyPgColumn;
  purchaseOrderDocNumber: AnyPgColumn;
  salesOrderDocNumber: AnyPgColumn;
  deliveryOrderDocNumber: AnyPgColumn;
  trackingNumber: AnyPgColumn;
}) {
  return sql`(${joinedText([t.materialCode, t.materialDescription, t.reservationDocNumber, t.purchaseOrderDocNumber, t.salesOrderDocNumber, t.deliveryOrderDocNumber, t.trackingNumber])})`;
}
export function searchTextOfOrder(t: { id: AnyPgColumn; equipmentCode: AnyPgColumn; equipmentDescription: AnyPgColumn; destination: AnyPgColumn }) {
  return sql`(${joinedText([t.id, t.equipmentCode, t.equipmentDescription, t.destination])})`;
}

/** A tracking-status order row (§3): a service order and its equipment. */
export const orders = pgTable(
  'orders',
  {
    id: text('id').primaryKey(),
    serviceOrder: text('service_order'),
    equipmentCode: text('equipment_code'),
    equipmentDescription: text('equipment_description'),
    destination: text('destination'),
    plant: text('plant')
      .notNull()
      .references(() => plants.code),
    workCenter: text('work_center'),
    plannerGroup: text('planner_group'),
    shipToParty: text('ship_to_party'),
    /** The mechanic the order is for ("My orders"). */
    userEmail: text('user_email'),
    /**
     * Item summary kept by statement-level triggers on order_items (migrations 0006, 0012, 0015,
     * 0020): how many items the order has, how many have arrived (§4, item_is_arrived) and how many
     * wait at an access point (item_is_action_point). Tabs and pages without a search term read
     * these. Items inserted or deleted: recounted with the search text in one write (0020).
     */
    itemCount: integer('item_count').notNull().default(0),
    arrivedItems: integer('arrived_items').notNull().default(0),
    actionPointItems: integer('action_point_items').notNull().default(0),
    /**
     * §5 free text of the order and of all its items, lower-cased, in one column (migration 0016,
     * docs/decisions/0031): searchTextOfOrder, then each item's searchTextOfItem in line order,
     * joined by the unit separator. Kept by the triggers of migrations 0016 and 0020
     * (order_search_text(), order_own_search_text(), order_item_search_text()); an order may be
     * inserted with its items' text already (the ERP ingestion of new orders, docs/decisions/0036).
     * One trigram index over it names the orders a free term may match.
     */
    searchText: text('search_text').notNull().default(''),
    /**
     * The search text of the order's items in one tab (searchTextOfItem of each, in line order,
     * lower-cased), for an order with items both in and out of that tab; NULL otherwise (an order
     * whose items are all in the tab, or none, is answered by its item summary). A single free
     * term's tab count is then a text test on the order row, where it read the order's items one
     * by one (docs/decisions/0041). Kept with the summary by order_items_rollup_refresh
     * (migration 0024); the ingestion and the seed give a new order its own.
     */
    arrivedText: text('arrived_text'),
    incomingText: text('incoming_text'),
    actionPointText: text('action_point_text'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('orders_plant_idx').on(t.plant, t.createdAt),
    // The extra part of a scope (ship-to-party numbers, orders addressed to the caller) by plant:
    // fewInScope asks for its orders outside the caller's plants (docs/decisions/0047).
    index('orders_user_email_idx').on(t.userEmail, t.plant),
    index('orders_work_center_idx').on(t.plant, t.workCenter),
    index('orders_planner_group_idx').on(t.plant, t.plannerGroup),
    index('orders_ship_to_party_idx').on(t.shipToParty, t.plant),
    // The tracking order ("updated_at desc, id desc") is read through orders_list_idx, a covering
    // index written in migration 0015 (scope columns and the item summary included, so pages and
    // capped tab counts are index-only scans; drizzle cannot declare INCLUDE). The orders with a
    // parcel at an access point have their own partial index in that order, covering the same
    // columns (orders_action_point_idx, migration 0026): a scoped caller's action-point count is
    // an index-only walk of the tab's own orders (docs/decisions/0045).
    // §5 "equipment description=…" is a substring match (docs/decisions/0021).
    index('orders_equipment_description_trgm_idx').using('gin', t.equipmentDescription.op('gin_trgm_ops')),
    // §5 free text: the order's own text and its items' (search_text), one trigram index. Every
    // new row version of an order (its item summary too) adds its trigrams: a 1 MB pending list
    // batches them (64 kB made item writes 2–3× slower) and stays quick for a search to read.
    index('orders_search_text_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')).with({ gin_pending_list_limit: 1024 }),
    // The same text of the orders with a parcel at an access point (13 % of the orders at scale
    // 500): the action-point count of a rare term or a description reads this index's short lists,
    // where it ANDed the term's whole trigram list with orders_action_point_idx (docs/decisions/0043).
    index('orders_action_point_search_idx')
      .using('gin', t.searchText.op('gin_trgm_ops'))
      .with({ gin_pending_list_limit: 1024 })
      .where(sql`action_point_items > 0`),
    // §5 free terms of 1–2 characters have no trigram: order_short_grams() (migration 0030) is the
    // set of trigrams of the text with every character tripled ("dj" → "ddj", "djj"; "q" → "qqq"),
    // and `@>` on this index names the orders holding a rare pair or letter (docs/decisions/0035).
    // Runs of digits touching no letter are left out: every digit pair is in most orders, so those
    // terms are walked, and they were a third of the keys every order write inserted (0049).
    index('orders_short_grams_idx').using('gin', sql`order_short_grams(${t.searchText})`).with({ gin_pending_list_limit: 1024 }),
    index('orders_service_order_lower_idx').on(sql`lower(${t.serviceOrder})`),
    index('orders_equipment_lower_idx').on(sql`lower(${t.equipmentCode})`),
    // §5 `wc=`, `planner group=`, `user email=` compare lower-cased (the scope's own indexes hold
    // the codes as written): a rare work centre walked the whole list index for each count,
    // 190-430 ms at scale 500 (docs/decisions/0045). With the plant, the orders of a code in the
    // caller's plants are named apart (fewInScope): a DE02 admin's `wc=FI01M001` walked the
    // whole list index for none (docs/decisions/0047).
    index('orders_work_center_lower_idx').on(sql`lower(${t.workCenter})`, t.plant),
    index('orders_planner_group_lower_idx').on(sql`lower(${t.plannerGroup})`, t.plant),
    index('orders_user_email_lower_idx').on(sql`lower(${t.userEmail})`, t.plant),
    // What order_items_order_plant_fk refers to: an item's plant is its order's.
    unique('orders_id_plant_uq').on(t.id, t.plant),
  ],
);

/** Order item with every document field of §3; the tracking stage is derived from them (§4). */
export const orderItems = pgTable(
  'order_items',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: text('order_id').notNull(),
    /**
     * The order's plant, so a search by an item field reaches only the items of the caller's
     * plants through order_items_storage_location_plant_idx (docs/decisions/0047). The foreign key
     * (order_id, plant) holds it equal to the order's and carries a change of the order's plant;
     * a writer that leaves it out gets the order's (trigger order_items_plant_fill, migration 0028).
     */
    plant: text('plant').notNull(),
    lineNumber: integer('line_number').notNull(),
    materialCode: text('material_code').notNull(),
    materialDescription: text('material_description').notNull(),
    unit: text('unit').notNull(),
    deliveryDate: date('delivery_date'),
    eta: date('eta'),
    deliveryStatus: text('delivery_status'),
    deliveryType: text('delivery_type'),
    deliveryAddress: text('delivery_address'),
    storageLocation: text('storage_location'),
    addressCode: text('address_code'),
    trackingNumber: text('tracking_number'),
    transportDetails: jsonb('transport_details'),
    smsTimestamps: jsonb('sms_timestamps'),
    reservationDocNumber: text('reservation_doc_number'),
    reservationQuantity: numeric('reservation_quantity'),
    pending: numeric('pending'),
    purchaseOrderDocNumber: text('purchase_order_doc_number'),
    purchaseOrder: text('purchase_order'),
    purchaseOrderQuantity: numeric('purchase_order_quantity'),
    purchaseOrderConfirmationCategory: text('purchase_order_confirmation_category'),
    purchaseOrderConfirmationQuantity: numeric('purchase_order_confirmation_quantity'),
    purchaseOrderGoodsReceiptQuantity: numeric('purchase_order_goods_receipt_quantity'),
    goodsReceiptPostedAt: timestamp('goods_receipt_posted_at', { withTimezone: true }),
    salesOrderDocNumber: text('sales_order_doc_number'),
    salesOrderDocNumberAtPO: text('sales_order_doc_number_at_po'),
    salesOrderScheduleLineQuantity: numeric('sales_order_schedule_line_quantity'),
    salesOrderQuantity: numeric('sales_order_quantity'),
    deliveryOrderDocNumber: text('delivery_order_doc_number'),
    deliveryQuantity: numeric('delivery_quantity'),
    mainAssetNumber: text('main_asset_number'),
    network: text('network'),
    costCenter: text('cost_center'),
    actionPoint: text('action_point'),
    notification: text('notification'),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('order_items_order_line_uq').on(t.orderId, t.lineNumber),
    foreignKey({ name: 'order_items_order_plant_fk', columns: [t.orderId, t.plant], foreignColumns: [orders.id, orders.plant] })
      .onDelete('cascade')
      .onUpdate('cascade'),
    // §5 field terms compare codes case-insensitively: lower(column) = / >= / … value.
    index('order_items_material_lower_idx').on(sql`lower(${t.materialCode})`),
    index('order_items_po_lower_idx').on(sql`lower(${t.purchaseOrderDocNumber})`),
    index('order_items_tracking_lower_idx').on(sql`lower(${t.trackingNumber})`),
    // `sloc=V1921` names its orders through this index (a walk of every order took 1.6-5.9 s at
    // scale 500; docs/decisions/0045), and a caller's plants name their items of a location that
    // is mostly another plant's (`sloc=V001` for a DE02 admin: 54 of 193,231 items; 0047).
    index('order_items_storage_location_plant_idx').on(sql`lower(${t.storageLocation})`, t.plant),
    // `delivery=<status>` names its orders here (index-only: the statuses' spellings, then their
    // orders; migration 0023). Items without a status are not in it.
    index('order_items_status_idx').on(t.deliveryStatus, t.orderId).where(sql`${t.deliveryStatus} is not null`),
    // Field operators on the other documents and dates (docs/decisions/0021).
    index('order_items_sales_order_lower_idx').on(sql`lower(${t.salesOrderDocNumber})`),
    index('order_items_delivery_order_lower_idx').on(sql`lower(${t.deliveryOrderDocNumber})`),
    // Migration 0022 makes it cover what a tab's count reads (order, status, goods receipt): INCLUDE.
    index('order_items_delivery_date_idx').on(t.deliveryDate),
    // Items arrived by their goods receipt and not by their status (docs/decisions/0040): the
    // arrived tab of `delivery=<status>` for a status that does not arrive by itself ("OnTheWay")
    // names its few orders here. The predicate is the one receivedWith() writes (server/repositories/tracking.ts).
    // A migration that replaces item_is_arrived() must REINDEX this index: PostgreSQL keeps the
    // entries the old function chose (as it keeps the orders' item summaries the triggers wrote).
    index('order_items_received_idx')
      .on(t.deliveryStatus, t.orderId)
      .where(
        sql`item_is_arrived(${t.deliveryStatus}, ${t.goodsReceiptPostedAt}, ${t.purchaseOrderGoodsReceiptQuantity}) and not item_is_arrived(${t.deliveryStatus}, null, null)`,
      ),
    // §5 "material description=…" is a substring match.
    index('order_items_material_description_trgm_idx').using('gin', t.materialDescription.op('gin_trgm_ops')),
  ],
);

/** Carrier tracking events of a parcel (the rows behind transportDetails). */
export const parcelEvents = pgTable(
  'parcel_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderItemId: bigint('order_item_id', { mode: 'number' })
      .notNull()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    trackingNumber: text('tracking_number').notNull(),
    carrier: text('carrier').notNull(),
    status: text('status').notNull(),
    description: text('description').notNull(),
    location: text('location'),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('parcel_events_item_idx').on(t.orderItemId, t.occurredAt)],
);

// ───────────────────────────── stock and stock counts ─────────────────────────────

export const stockItems = pgTable(
  'stock_items',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    plant: text('plant')
      .notNull()
      .references(() => plants.code),
    storageLocation: text('storage_location').notNull(),
    materialCode: text('material_code')
      .notNull()
      .references(() => materials.code),
    bin: text('bin'),
    unrestrictedCount: numeric('unrestricted_count'),
    qualityInspectionCount: numeric('quality_inspection_count'),
    blockedCount: numeric('blocked_count'),
    restrictedCount: numeric('restricted_count'),
    transferCount: numeric('transfer_count'),
    reorderPoint: numeric('reorder_point'),
    reorderQuantity: numeric('reorder_quantity'),
    plannerGroups: text('planner_groups').array().notNull().default(sql`'{}'::text[]`),
    workCenters: text('work_centers').array().notNull().default(sql`'{}'::text[]`),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('stock_items_location_material_uq').on(t.plant, t.storageLocation, t.materialCode),
    index('stock_items_material_idx').on(t.materialCode),
    // Stock search (§5): a term naming a storage location matches its rows (docs/decisions/0021).
    index('stock_items_storage_location_idx').on(t.storageLocation),
    // Stock search (§5): `bin ilike '%term%'` through trigrams (small pending list: see materials).
    index('stock_items_bin_trgm_idx').using('gin', t.bin.op('gin_trgm_ops')).with({ gin_pending_list_limit: 64 }),
    // Stock search (§5): a plant has a few hundred distinct bins; a search reads them through this
    // index (a skip scan), matches them, then reads the rows of the matching bins — at any term
    // length, where trigrams need three characters (docs/decisions/0035).
    index('stock_items_bin_idx').on(t.bin),
  ],
);

/**
 * How many stock rows each storage location holds, kept by statement-level triggers on
 * stock_items (migration 0003): stock lists count and page through the locations of a scope
 * without scanning its rows (a super manager's plant stock is every row).
 */
export const stockLocationCounts = pgTable(
  'stock_location_counts',
  {
    plant: text('plant').notNull(),
    storageLocation: text('storage_location').notNull(),
    items: integer('items').notNull(),
  },
  (t) => [primaryKey({ columns: [t.plant, t.storageLocation] })],
);

/**
 * Stock transfer requests (§3). Decision 0061: a holder of `storageLocations.update` in the plant
 * (stock admin, super manager) marks one done or declined, once; the requester is told.
 */
export const stockTransferRequests = pgTable(
  'stock_transfer_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    plant: text('plant')
      .notNull()
      .references(() => plants.code),
    storageLocationFrom: text('storage_location_from').notNull(),
    storageLocationTo: text('storage_location_to').notNull(),
    materialCode: text('material_code')
      .notNull()
      .references(() => materials.code),
    quantity: numeric('quantity').notNull(),
    /** requested, then done or declined (TRANSFER_STATUSES). */
    status: text('status').notNull().default('requested'),
    createdAt: createdAt(),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('stock_transfer_requests_user_idx').on(t.userId, t.createdAt),
    index('stock_transfer_requests_plant_idx').on(t.plant, t.createdAt),
    check('stock_transfer_requests_status_check', sql`${t.status} in ('requested', 'done', 'declined')`),
  ],
);

export const stockCounts = pgTable(
  'stock_counts',
  {
    id: serial('id').primaryKey(),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by').notNull(),
    plant: text('plant')
      .notNull()
      .references(() => plants.code),
    type: text('type').notNull(),
    shouldBeDoneAt: date('should_be_done_at'),
    status: text('status').notNull().default('initiated'),
    isDraft: boolean('is_draft').notNull().default(false),
    storageLocation: text('storage_location').notNull(),
    conductedBy: text('conducted_by'),
    workCenter: text('work_center'),
    plannerGroup: text('planner_group'),
    latestSapError: text('latest_sap_error'),
    physicalInventoryDocumentNumber: text('physical_inventory_document_number'),
    /**
     * The reference this count is booked under in the ERP system (decision 0053), written and
     * committed before the ERP is first called, and kept: every try and every later submission
     * of the count asks under it, and the ERP books it once.
     */
    erpReference: text('erp_reference'),
    /**
     * The tries of the booking under erp_reference still waiting for the ERP (route and periodic
     * sweep, decision 0053), and when the first of them began. While one is outstanding, another
     * try's refusal leaves the count `submitted` and frozen: the outstanding try may still book
     * it. A try older than ERP_TRY_EXPIRES_MINUTES (a server that stopped mid-call) no longer counts.
     */
    erpTries: integer('erp_tries').notNull().default(0),
    erpTryStartedAt: timestamp('erp_try_started_at', { withTimezone: true }),
    recountOf: integer('recount_of'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    /** When the person counting was reminded that the deadline is near (#6); cleared when the deadline moves. */
    dueReminderSentAt: timestamp('due_reminder_sent_at', { withTimezone: true }),
    /** #18 blind count (decision 0033): the people counting get no book quantity in any response. */
    isBlind: boolean('is_blind').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('stock_counts_plant_idx').on(t.plant, t.status),
    index('stock_counts_conducted_by_idx').on(t.conductedBy),
    // The front-liner report's range of creation days (per plant, or across the caller's plants).
    index('stock_counts_created_idx').on(t.created),
    // #19 item 14: at most one open recount per count (open = still editable, §4), and the
    // lookup of a page's open recounts.
    uniqueIndex('stock_counts_open_recount_uq')
      .on(t.recountOf)
      .where(sql`${t.status} in ('initiated','in_progress','error','recount')`),
    check('stock_counts_type_ck', sql`${t.type} in ('single','wall_to_wall','local')`),
    check(
      'stock_counts_status_ck',
      sql`${t.status} in ('initiated','in_progress','submitted','completed','cancelled','error','recount')`,
    ),
  ],
);

export const materialCounts = pgTable(
  'material_counts',
  {
    id: serial('id').primaryKey(),
    stockCountId: integer('stock_count_id')
      .notNull()
      .references(() => stockCounts.id, { onDelete: 'cascade' }),
    materialCode: text('material_code')
      .notNull()
      .references(() => materials.code),
    materialDescriptionEnglish: text('material_description_english').notNull(),
    quantity: numeric('quantity'),
    unit: text('unit').notNull(),
    /** Book quantity when the line was created, and when it was taken (§ beyond the anchors, #4). */
    bookQuantity: numeric('book_quantity'),
    bookQuantityAt: timestamp('book_quantity_at', { withTimezone: true }),
    /** Optimistic concurrency: bumped on every quantity change; stale edits answer 409. */
    version: integer('version').notNull().default(0),
    updatedBy: text('updated_by'),
    updatedAt: updatedAt(),
    /**
     * #18 merge (decision 0033): on a count split among counters, the planner's choice between two
     * counters' different quantities: whose quantity (the part) was taken, by whom, when.
     */
    resolvedPartId: integer('resolved_part_id'),
    resolvedBy: text('resolved_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('material_counts_count_material_uq').on(t.stockCountId, t.materialCode)],
);

/**
 * #18 several counters on one count (decision 0033): a part of a count, counted by one person.
 * One part per person per count; a count without parts is the single-counter count of §3
 * (conducted_by) and works as before.
 */
export const stockCountParts = pgTable(
  'stock_count_parts',
  {
    id: serial('id').primaryKey(),
    stockCountId: integer('stock_count_id')
      .notNull()
      .references(() => stockCounts.id, { onDelete: 'cascade' }),
    /** The person counting this part (e-mail, lower case). */
    counter: text('counter').notNull(),
    /** What the planner calls the part ("bins A-01 to A-20"), shown to the counter. */
    label: text('label'),
    status: text('status').notNull().default('open'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('stock_count_parts_counter_uq').on(t.stockCountId, t.counter),
    index('stock_count_parts_counter_idx').on(t.counter),
    check('stock_count_parts_status_ck', sql`${t.status} in ('open','done')`),
  ],
);

/**
 * The lines of a part and what its counter counted there, kept apart from the count's merged
 * quantity (material_counts.quantity): who counted what, when. A line in two parts is a control
 * count, made only on purpose (decision 0033).
 */
export const stockCountPartLines = pgTable(
  'stock_count_part_lines',
  {
    partId: integer('part_id')
      .notNull()
      .references(() => stockCountParts.id, { onDelete: 'cascade' }),
    materialCountId: integer('material_count_id')
      .notNull()
      .references(() => materialCounts.id, { onDelete: 'cascade' }),
    quantity: numeric('quantity'),
    countedBy: text('counted_by'),
    countedAt: timestamp('counted_at', { withTimezone: true }),
    /** Optimistic concurrency per counter's line, as material_counts.version. */
    version: integer('version').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.partId, t.materialCountId] }), index('stock_count_part_lines_line_idx').on(t.materialCountId)],
);

// ───────────────────────────── notifications ─────────────────────────────

/** Every e-mail, SMS and push message sent or attempted, with its read and delivery state. */
export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    notificationKey: text('notification_key').notNull(),
    userEmail: text('user_email').notNull(),
    phoneNumber: text('phone_number'),
    plant: text('plant'),
    plannerGroup: text('planner_group'),
    storageLocation: text('storage_location'),
    workCenter: text('work_center'),
    subject: text('subject'),
    title: text('title'),
    message: text('message').notNull(),
    /** §4: marking read sets active to false. */
    active: boolean('active').notNull().default(true),
    deliveryState: text('delivery_state').notNull().default('recorded'),
    deliveryError: text('delivery_error'),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    /** #6 outbox: the address the message went to, what it opens, and the dispatcher's bookkeeping. */
    recipient: text('recipient'),
    link: text('link'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** #19 item 22 (decision 0032): the text as a key and parameters, for the PWA to render in the user's language. */
    textKey: text('text_key'),
    textParams: jsonb('text_params').$type<Record<string, string | number | null>>(),
    /**
     * The subject and body in the recipient's language when it is not English (decision 0069): the
     * list shows the text in the reader's language, so its search finds those words too.
     */
    readerText: text('reader_text'),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.channel, t.created),
    index('notifications_outbox_idx').on(t.deliveryState, t.nextAttemptAt),
    // The bell's unread dropdown and count: a user's unread notifications of every channel, newest
    // first. NULLS FIRST as ORDER BY … DESC says it: with drizzle's NULLS LAST the index could not
    // give that order, and PostgreSQL sorted all of a user's unread notifications for the 50 shown.
    index('notifications_unread_idx').on(t.userId, t.created.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`${t.active}`),
    // A stock count's notifications, by the link to its mechanic view: resolved when the count is
    // cancelled or handed over, and looked up by the "due" reminder (server/notifications/producers.ts).
    index('notifications_count_link_idx').on(t.link).where(sql`${t.notificationKey} = 'inventory_count_notification'`),
    // A transfer request's "waiting for you" notifications, by the request's id: resolved when it is decided.
    index('notifications_transfer_request_idx')
      .on(sql`(${t.textParams} ->> 'id')`)
      .where(sql`${t.notificationKey} = 'other_notification' and ${t.textKey} = 'stockTransferRequested'`),
    check('notifications_channel_ck', sql`${t.channel} in ('email','sms','push')`),
  ],
);

/** Primary and secondary recipients of a user's notifications (§3 notification settings entry). */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    primary: boolean('primary').notNull(),
    emailEnabled: boolean('email_enabled').notNull().default(false),
    email: text('email'),
    mobileEnabled: boolean('mobile_enabled').notNull().default(false),
    mobileNumber: text('mobile_number'),
    pushNotificationsEnabled: boolean('push_notifications_enabled').notNull().default(false),
    /** Per notification key: { emailEnabled, smsEnabled, pushEnabled }. */
    preferences: jsonb('preferences').notNull().default({}),
    /**
     * Decision 0068: one more at every save of the row. The user's settings revision is the sum of
     * both rows' (0 with none): a save naming an older one is refused, not written over a newer.
     */
    revision: integer('revision').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.primary] })],
);

export const notificationDevices = pgTable(
  'notification_devices',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    token: text('token'),
    deviceName: text('device_name').notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    isLoggedIn: boolean('is_logged_in').notNull().default(true),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceId] })],
);

// ───────────────────────────── feedback, broadcast, files, priorities ─────────────────────────────

export const feedback = pgTable(
  'feedback',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    plant: text('plant'),
    payload: jsonb('payload').notNull(),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('feedback_user_idx').on(t.userId, t.created)],
);

export const importantMessages = pgTable('important_messages', {
  id: serial('id').primaryKey(),
  position: integer('position').notNull(),
  text: text('text').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: createdAt(),
});

export const fileProcessing = pgTable(
  'file_processing',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fileType: text('file_type').notNull(),
    fileName: text('file_name').notNull(),
    businessDate: date('business_date').notNull(),
    filePartOfDay: text('file_part_of_day').notNull(),
    startDate: timestamp('start_date', { withTimezone: true }),
    endDate: timestamp('end_date', { withTimezone: true }),
    status: text('status').notNull(),
    checksum: text('checksum'),
    lineCount: integer('line_count'),
    errors: jsonb('errors').notNull().default([]),
    claimedBy: text('claimed_by'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** Where the file came from: 'inbox', 'upload' or 'seed' (#9); null for a missing slot. */
    source: text('source'),
    uploadedBy: text('uploaded_by'),
    createdAt: createdAt(),
  },
  (t) => [
    index('file_processing_date_idx').on(t.businessDate),
    // A file is received once per slot: the same bytes again for the same slot (a re-sent file,
    // a browser's "… (1).csv") are a duplicate; for another slot (an unchanged export the next
    // part of day) they are that slot's file and are applied (decision 0073).
    uniqueIndex('file_processing_checksum_slot_uq').on(t.checksum, t.fileType, t.businessDate, t.filePartOfDay),
    // One "missing" row per expected slot, even when two replicas sweep the schedule at once.
    uniqueIndex('file_processing_missing_slot_uq')
      .on(t.businessDate, t.fileType, t.filePartOfDay)
      .where(sql`status = 'missing'`),
    // The work queue: files waiting or claimed, found without scanning the history.
    index('file_processing_queue_idx').on(t.status, t.createdAt).where(sql`status in ('not_processed','in_progress')`),
    check(
      'file_processing_status_ck',
      sql`${t.status} in ('processed','errored','missing','in_progress','not_processed')`,
    ),
  ],
);

/** The bytes of a received ERP file until it is processed, so any replica can process it (#9). */
export const fileContents = pgTable('file_contents', {
  fileId: uuid('file_id')
    .primaryKey()
    .references(() => fileProcessing.id, { onDelete: 'cascade' }),
  content: text('content').notNull(),
});

export const accessPoints = pgTable('access_points', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  address: text('address').notNull(),
  postalCode: text('postal_code').notNull(),
  city: text('city').notNull(),
  country: text('country').notNull(),
});

export const accessPointPriorities = pgTable(
  'access_point_priorities',
  {
    shipToPartyCode: text('ship_to_party_code')
      .notNull()
      .references(() => shipToParties.code, { onDelete: 'cascade' }),
    accessPointId: text('access_point_id')
      .notNull()
      .references(() => accessPoints.id, { onDelete: 'cascade' }),
    priority: integer('priority').notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    updatedBy: text('updated_by'),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.shipToPartyCode, t.accessPointId] }),
    check('access_point_priorities_priority_ck', sql`${t.priority} between 1 and 99`),
  ],
);

// ───────────────────────────── platform ─────────────────────────────

/** First response per (user, Idempotency-Key), replayed byte for byte for ≥ 24 h. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id').notNull(),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    responseBody: text('response_body'),
    contentType: text('content_type'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorUserId: uuid('actor_user_id'),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_target_idx').on(t.targetType, t.targetId), index('audit_log_created_idx').on(t.createdAt)],
);
