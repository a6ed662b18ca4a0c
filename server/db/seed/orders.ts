/** Orders, their items in every §4 tracking stage, and the parcels' carrier events. */
import { DOCUMENT_STAGES, isActionPoint, isArrived, type DeliveryFields, type DeliveryStatus } from '../../../src/domain/tracking';
import { DEMO_MECHANIC } from '../../auth/demo-accounts';
import type * as schema from '../schema';
import { ACCESS_POINTS, BUILDING_KINDS, CARRIER_TRACKING_URLS, EQUIPMENT_KINDS, SHIP_TO_PARTIES, type CarrierName, type PlantDef } from './data';
import { plantDef, type Insert, type WorkCenter, type World } from './model';
import { DocNumbers, item, pad, Random } from './random';
import { orderCount } from './scale';
import { addDays, addHours, DAY, HOUR, isoDate, maxDate, minDate } from './time';

// The stage rules live in src/domain/tracking.ts; the seed plans items for each document stage.
const TRACKING_STAGES = DOCUMENT_STAGES;
type Stage = (typeof DOCUMENT_STAGES)[number];
type ShippedStatus = DeliveryStatus;

interface ItemPlan {
  stage: Stage;
  /** Delivery-order items only: null = delivery order created, not shipped yet. */
  status: ShippedStatus | null;
  /** Goods-receipt items: posted within the last 5 days (grey location icon, §4). */
  recentReceipt: boolean;
}

/** The first items of the demo mechanic: every stage and every delivery status, guaranteed. */
const SHOWCASE_PLANS: readonly ItemPlan[] = [
  { stage: 'ServiceOrder', status: null, recentReceipt: false },
  { stage: 'ReservationItem', status: null, recentReceipt: false },
  { stage: 'PurchaseOrderItem', status: null, recentReceipt: false },
  { stage: 'PurchaseOrderConfirmationItem', status: null, recentReceipt: false },
  { stage: 'PurchaseOrderGoodsReceiptItem', status: null, recentReceipt: true },
  { stage: 'PurchaseOrderGoodsReceiptItem', status: null, recentReceipt: false },
  { stage: 'SalesOrderItem', status: null, recentReceipt: false },
  { stage: 'SalesOrderScheduleLineItem', status: null, recentReceipt: false },
  { stage: 'DeliveryOrderItem', status: null, recentReceipt: false },
  { stage: 'DeliveryOrderItem', status: 'OnTheWay', recentReceipt: false },
  { stage: 'DeliveryOrderItem', status: 'ToBePickedUp', recentReceipt: false },
  { stage: 'DeliveryOrderItem', status: 'At access point', recentReceipt: false },
  { stage: 'DeliveryOrderItem', status: 'Delivered', recentReceipt: false },
  { stage: 'DeliveryOrderItem', status: 'Delivery Failed', recentReceipt: false },
];

const STAGE_WEIGHTS: ReadonlyArray<readonly [Stage, number]> = [
  ['ServiceOrder', 6],
  ['ReservationItem', 9],
  ['PurchaseOrderItem', 10],
  ['PurchaseOrderConfirmationItem', 11],
  ['PurchaseOrderGoodsReceiptItem', 10],
  ['SalesOrderItem', 8],
  ['SalesOrderScheduleLineItem', 9],
  ['DeliveryOrderItem', 37],
];

const STATUS_WEIGHTS: ReadonlyArray<readonly [ShippedStatus | null, number]> = [
  [null, 12],
  ['OnTheWay', 24],
  ['ToBePickedUp', 8],
  ['At access point', 9],
  ['Delivered', 42],
  ['Delivery Failed', 5],
];

interface ParcelEvent {
  status: string;
  description: string;
  location: string;
  occurredAt: Date;
}

interface OrderContext {
  rng: Random;
  world: World;
  docs: {
    reservation: DocNumbers;
    purchaseOrder: DocNumbers;
    salesOrder: DocNumbers;
    delivery: DocNumbers;
    notification: DocNumbers;
  };
}

export interface OrderRows {
  orders: Insert<typeof schema.orders>[];
  items: Insert<typeof schema.orderItems>[];
  events: Insert<typeof schema.parcelEvents>[];
  /** Order id → the mechanic it is for ("My orders"). */
  ownerOf: Map<string, string | null>;
}

function orderedQuantity(rng: Random, unit: string): string {
  switch (unit) {
    case 'M':
      return String(rng.int(1, 16) * 5);
    case 'KG':
      return String(rng.int(1, 10));
    case 'L':
      return String(rng.int(1, 20));
    case 'SET':
      return String(rng.int(1, 2));
    default:
      return String(rng.int(1, 6));
  }
}

/** Youngest orders cannot have travelled far yet; cap the stage by the order's age. */
function randomPlan(rng: Random, ageDays: number): ItemPlan {
  let stage = rng.weighted(STAGE_WEIGHTS);
  const cap = ageDays < 1 ? 2 : ageDays < 3 ? 4 : ageDays < 6 ? 6 : 7;
  if (TRACKING_STAGES.indexOf(stage) > cap) stage = item(TRACKING_STAGES, cap);
  return {
    stage,
    status: stage === 'DeliveryOrderItem' ? rng.weighted(STATUS_WEIGHTS) : null,
    recentReceipt: rng.chance(0.55),
  };
}

/** Carrier scans from "information received" to the status's last event, ending before now. */
function parcelEvents(rng: Random, plan: ItemPlan & { status: ShippedStatus }, viaAccessPoint: boolean, plant: PlantDef, created: Date, now: Date, apName: string): ParcelEvent[] {
  const steps: Array<[string, string, string]> = [
    ['InfoReceived', 'Shipment information received', 'Distribution center'],
    ['InTransit', 'In transit', rng.pick(plant.parcelHubs)],
  ];
  if (rng.chance(0.5)) steps.push(['InTransit', 'Arrived at sorting center', rng.pick(plant.parcelHubs)]);
  const ready: [string, string, string] = ['AtAccessPoint', 'Ready for pickup at access point', apName];
  switch (plan.status) {
    case 'OnTheWay':
      if (steps.length < 3) steps.push(['InTransit', 'Departed from sorting center', rng.pick(plant.parcelHubs)]);
      if (rng.chance(0.4)) steps.push(['OutForDelivery', 'Out for delivery', plant.city]);
      break;
    case 'At access point':
      steps.push(ready);
      break;
    case 'ToBePickedUp':
      steps.push(ready, ['ToBePickedUp', 'Pickup reminder sent to recipient', apName]);
      break;
    case 'Delivery Failed':
      steps.push(['OutForDelivery', 'Out for delivery', plant.city], ['DeliveryFailed', 'Delivery attempt failed – recipient not available', plant.city]);
      break;
    case 'Delivered':
      if (viaAccessPoint) steps.push(ready, ['Delivered', 'Delivered – picked up at access point', apName]);
      else steps.push(['OutForDelivery', 'Out for delivery', plant.city], ['Delivered', 'Delivered', plant.city]);
      break;
  }
  const ageDays = (now.getTime() - created.getTime()) / DAY;
  const lastEventHoursAgo = plan.status === 'Delivered' ? rng.float(3, 24 * Math.max(0.5, Math.min(20, ageDays - 5))) : rng.float(1, 30);
  let at = addHours(now, -lastEventHoursAgo);
  const times: Date[] = [at];
  for (let i = 1; i < steps.length; i++) {
    at = addHours(at, -rng.float(3, 18));
    times.unshift(at);
  }
  const earliest = addHours(created, 2);
  let previous = earliest;
  return steps.map(([status, description, location], i) => {
    // Clamp into (created, now): a young order keeps its events in order, just closer together.
    const occurredAt = maxDate(item(times, i), addHours(previous, i === 0 ? 0 : 0.25));
    previous = occurredAt;
    return { status, description, location, occurredAt };
  });
}

function trackingNumber(rng: Random, carrier: CarrierName): string {
  switch (carrier) {
    case 'Posti':
      return `JJFI${rng.digits(17)}`;
    case 'DHL':
      return `JJD${rng.digits(18)}`;
    case 'DPD':
      return rng.digits(14);
    case 'UPS':
      return `1Z${Array.from({ length: 16 }, () => rng.pick([...'0123456789ABCDEFGHJKLMNPRSTVWXYZ'])).join('')}`;
    case 'Colissimo':
      return `6A${rng.digits(11)}`;
  }
}

/** Fills the document fields exactly as §4's stage rules read them. */
function documentFields(ctx: OrderContext, plan: ItemPlan, quantity: string, created: Date): Partial<Insert<typeof schema.orderItems>> {
  const { rng, docs, world } = ctx;
  const index = TRACKING_STAGES.indexOf(plan.stage);
  if (index === 0) return {};
  const fields: Partial<Insert<typeof schema.orderItems>> = {
    reservationDocNumber: docs.reservation.next(),
    reservationQuantity: quantity,
    pending: quantity,
  };
  // Stages 6–8 come either from the central warehouse (sales order only) or from a supplier PO.
  const viaPurchase = index >= 2 && index <= 4 ? true : index >= 5 ? rng.chance(0.4) : false;
  if (viaPurchase) {
    const po = docs.purchaseOrder.next();
    Object.assign(fields, { purchaseOrderDocNumber: po, purchaseOrder: `${po}/${pad(rng.int(1, 5) * 10, 5)}`, purchaseOrderQuantity: quantity });
  }
  if (plan.stage === 'PurchaseOrderConfirmationItem' || (index >= 6 && viaPurchase && rng.chance(0.6))) {
    // "AB" order acknowledgement, "LA" shipping notification; a partial confirmation now and then.
    fields.purchaseOrderConfirmationCategory = rng.chance(0.7) ? 'AB' : 'LA';
    fields.purchaseOrderConfirmationQuantity = rng.chance(0.85) ? quantity : String(Math.max(1, Math.floor(Number(quantity) / 2)));
  }
  if (plan.stage === 'PurchaseOrderGoodsReceiptItem') {
    fields.purchaseOrderGoodsReceiptQuantity = quantity;
    fields.goodsReceiptPostedAt = receiptTime(rng, plan.recentReceipt, created, world.now);
    fields.pending = '0';
  }
  if (index >= 5) {
    const so = docs.salesOrder.next();
    fields.salesOrderDocNumber = so;
    fields.salesOrderQuantity = quantity;
    if (viaPurchase) fields.salesOrderDocNumberAtPO = so;
  }
  if (index >= 6) fields.salesOrderScheduleLineQuantity = quantity;
  if (index >= 7) {
    fields.deliveryOrderDocNumber = docs.delivery.next();
    fields.deliveryQuantity = quantity;
    fields.pending = '0';
  }
  return fields;
}

/** Goods receipt either within the last 5 days (grey icon) or older, never before the order. */
function receiptTime(rng: Random, recent: boolean, created: Date, now: Date): Date {
  const ageHours = (now.getTime() - created.getTime()) / HOUR;
  const hoursAgo = recent || ageHours < 6 * 24 ? rng.float(1, Math.min(4.8 * 24, ageHours - 1)) : rng.float(5.5 * 24, ageHours - 1);
  return addHours(now, -Math.max(0.5, hoursAgo));
}

interface OrderHeader {
  id: string;
  plant: PlantDef;
  workCenter: WorkCenter;
  shipToParty: (typeof SHIP_TO_PARTIES)[number];
  userEmail: string | null;
  created: Date;
}

function buildItem(ctx: OrderContext, header: OrderHeader, plan: ItemPlan, lineNumber: number, itemId: number, rows: OrderRows): void {
  const { rng, world } = ctx;
  const { now } = world;
  const material = rng.pick(world.materials);
  const quantity = orderedQuantity(rng, material.unit);
  const mustUseAccessPoint = plan.status === 'At access point' || plan.status === 'ToBePickedUp';
  const viaAccessPoint = mustUseAccessPoint || (plan.status !== 'Delivery Failed' && rng.chance(0.4));
  const apIds = world.accessPointsByShipTo.get(header.shipToParty.code) ?? [];
  // Mostly the priority-1 access point of the ship-to-party, sometimes the second choice.
  const apId = rng.chance(0.8) ? apIds[0] : (apIds[1] ?? apIds[0]);
  const ap = ACCESS_POINTS.find((a) => a.id === apId);
  const useAp = viaAccessPoint && ap !== undefined;
  const stageIndex = TRACKING_STAGES.indexOf(plan.stage);
  const row: Insert<typeof schema.orderItems> = {
    id: itemId,
    orderId: header.id,
    plant: header.plant.code,
    lineNumber,
    materialCode: material.code,
    materialDescription: material.descriptionEnglish,
    unit: material.unit,
    deliveryType: useAp ? 'AccessPoint' : 'Warehouse',
    deliveryAddress: useAp ? `${ap.name}, ${ap.address}, ${ap.postalCode} ${ap.city}` : `${header.shipToParty.name}, ${header.shipToParty.address}`,
    addressCode: useAp ? ap.id : header.shipToParty.code,
    actionPoint: useAp ? ap.id : null,
    storageLocation: header.workCenter.van,
    deliveryDate: stageIndex >= 1 ? isoDate(addDays(header.created, rng.int(3, 14))) : null,
    eta: stageIndex >= 3 && stageIndex !== 4 ? isoDate(addDays(now, rng.int(1, 10))) : null,
    notification: rng.chance(0.3) ? ctx.docs.notification.next() : null,
    costCenter: rng.chance(0.08) ? `${header.plant.code}${rng.int(4100, 4199)}` : null,
    network: rng.chance(0.05) ? `90${rng.digits(8)}` : null,
    mainAssetNumber: rng.chance(0.03) ? `3000${rng.digits(6)}` : null,
    updatedAt: addHours(header.created, rng.float(1, Math.max(1, (now.getTime() - header.created.getTime()) / HOUR))),
    ...documentFields(ctx, plan, quantity, header.created),
  };
  if (plan.stage === 'PurchaseOrderGoodsReceiptItem' && row.goodsReceiptPostedAt) {
    row.deliveryDate = isoDate(row.goodsReceiptPostedAt);
  }
  if (plan.status) shipItem(ctx, header, { ...plan, status: plan.status }, row, useAp ? ap.name : header.shipToParty.name, useAp, rows);
  rows.items.push(row);
}

/** Tracking number, carrier events, transport details, SMS stamps and dates of a shipped item. */
function shipItem(ctx: OrderContext, header: OrderHeader, plan: ItemPlan & { status: ShippedStatus }, row: Insert<typeof schema.orderItems>, apName: string, viaAccessPoint: boolean, rows: OrderRows): void {
  const { rng, world } = ctx;
  const carrier = rng.pick(header.plant.carriers);
  const tn = trackingNumber(rng, carrier);
  const events = parcelEvents(rng, plan, viaAccessPoint, header.plant, header.created, world.now, apName);
  const last = item(events, events.length - 1);
  const readyAt = events.find((e) => e.status === 'AtAccessPoint')?.occurredAt;
  row.trackingNumber = tn;
  row.deliveryStatus = plan.status;
  row.transportDetails = {
    carrier,
    trackingUrl: CARRIER_TRACKING_URLS[carrier](tn),
    events: events.map((e) => ({ ...e, occurredAt: e.occurredAt.toISOString() })),
  };
  const sms = [readyAt, plan.status === 'ToBePickedUp' ? last.occurredAt : undefined].filter((d): d is Date => d !== undefined);
  if (plan.status === 'Delivery Failed' && rng.chance(0.5)) sms.push(last.occurredAt);
  row.smsTimestamps = sms.length > 0 ? sms.map((d) => d.toISOString()) : null;
  if (plan.status === 'Delivered') {
    row.deliveryDate = isoDate(last.occurredAt);
    row.eta = null;
    if (!viaAccessPoint && rng.chance(0.3)) {
      row.purchaseOrderGoodsReceiptQuantity = row.deliveryQuantity;
      row.goodsReceiptPostedAt = minDate(world.now, addHours(last.occurredAt, rng.float(2, 20)));
    }
  } else if (plan.status === 'OnTheWay') {
    row.eta = isoDate(addDays(world.now, rng.int(0, 3)));
  } else if (plan.status === 'Delivery Failed') {
    row.deliveryDate = isoDate(last.occurredAt);
    row.eta = isoDate(addDays(world.now, rng.int(1, 2)));
  } else {
    // At the access point: the ETA is the day it arrived; the pickup window is a week.
    row.deliveryDate = isoDate(readyAt ?? last.occurredAt);
    row.eta = isoDate(readyAt ?? last.occurredAt);
  }
  row.updatedAt = last.occurredAt;
  for (const event of events) {
    rows.events.push({ orderItemId: Number(row.id), trackingNumber: tn, carrier, ...event });
  }
}

/**
 * The orders, their items and scans, drawn from the 'orders' stream `perChunk` orders at a time
 * (#16: a million items at scale 500 are never held at once). The rows are those of one pass,
 * however they are cut.
 */
export function* orderChunks(world: World, perChunk: number): Generator<OrderRows> {
  const rng = new Random('orders');
  const ctx: OrderContext = {
    rng,
    world,
    docs: {
      reservation: new DocNumbers(rng, 2_100_000),
      purchaseOrder: new DocNumbers(rng, 4_500_100_000),
      salesOrder: new DocNumbers(rng, 1_200_300_000),
      delivery: new DocNumbers(rng, 8_000_400_000),
      notification: new DocNumbers(rng, 1_000_500_000),
    },
  };
  const serviceOrders = new DocNumbers(rng, 4_001_200_000);
  const equipment = new DocNumbers(rng, 41_000_000, 8);
  let rows: OrderRows = { orders: [], items: [], events: [], ownerOf: new Map() };
  const showcase = [...SHOWCASE_PLANS];
  const demoWorkCenter = world.workCenters.find((wc) => wc.plant === DEMO_MECHANIC.plant && wc.code === DEMO_MECHANIC.workCenter);
  const demoShipTo = SHIP_TO_PARTIES.find((stp) => stp.code === DEMO_MECHANIC.shipToParty);
  if (!demoWorkCenter || !demoShipTo) throw new Error('seed: demo mechanic work center or ship-to-party missing');
  const total = orderCount(world.scale);
  let itemId = 0;
  for (let i = 0; i < total; i++) {
    const isShowcase = showcase.length > 0;
    const isDemo = isShowcase || rng.chance(0.18);
    // Showcase orders are old enough for every stage; others span the last 60 days.
    const ageDays = isShowcase ? rng.float(20, 30) : rng.float(0.05, 60);
    const plant = isDemo ? plantDef(DEMO_MECHANIC.plant) : plantDef(rng.weighted([['FI01', 5], ['DE02', 3], ['FR03', 2]] as const));
    const workCenter = isDemo ? demoWorkCenter : rng.pick(world.workCenters.filter((wc) => wc.plant === plant.code));
    const mechanics = world.mechanicsByWorkCenter.get(`${plant.code}/${workCenter.code}`) ?? [];
    const header: OrderHeader = {
      id: serviceOrders.next(),
      plant,
      workCenter,
      shipToParty: isDemo ? demoShipTo : rng.pick(SHIP_TO_PARTIES.filter((stp) => stp.plant === plant.code)),
      userEmail: isDemo ? DEMO_MECHANIC.email : mechanics.length > 0 && rng.chance(0.9) ? rng.pick(mechanics) : null,
      created: addDays(world.now, -ageDays),
    };
    const itemCount = isShowcase ? Math.min(3, showcase.length) : rng.weighted([[1, 25], [2, 30], [3, 25], [4, 20]] as const);
    for (let line = 1; line <= itemCount; line++) {
      const plan = showcase.shift() ?? randomPlan(rng, ageDays);
      buildItem(ctx, header, plan, line * 10, ++itemId, rows);
    }
    rows.orders.push(orderRow(rng, header, equipment.next(), rows.items.slice(-itemCount)));
    rows.ownerOf.set(header.id, header.userEmail);
    if (rows.orders.length >= perChunk) {
      yield rows;
      rows = { orders: [], items: [], events: [], ownerOf: new Map() };
    }
  }
  if (rows.orders.length > 0) yield rows;
}

function orderRow(rng: Random, header: OrderHeader, equipmentCode: string, items: readonly Insert<typeof schema.orderItems>[]): Insert<typeof schema.orders> {
  const street = `${rng.pick(header.plant.streets)} ${rng.int(1, 120)}`;
  const destination = `${street}, ${rng.pick(header.plant.postalCodes)} ${header.plant.city}`;
  const updatedAt = items.reduce((latest, it) => (it.updatedAt && it.updatedAt > latest ? it.updatedAt : latest), header.created);
  const equipmentDescription = `${rng.pick(EQUIPMENT_KINDS)}, ${rng.pick(BUILDING_KINDS)} ${street}`;
  return {
    id: header.id,
    serviceOrder: header.id,
    equipmentCode,
    equipmentDescription,
    destination,
    plant: header.plant.code,
    workCenter: header.workCenter.code,
    plannerGroup: header.workCenter.plannerGroup,
    shipToParty: header.shipToParty.code,
    userEmail: header.userEmail,
    createdAt: header.created,
    updatedAt,
    ...itemRollup([header.id, equipmentCode, equipmentDescription, destination], items),
  };
}

const SEARCH_SEPARATOR = '\x1f';

/**
 * The order's item summary, search text and tab texts as its items' insert trigger computes them
 * (migrations 0020, 0024: item_is_arrived, item_is_action_point, order_search_text), so the order is written once:
 * the trigger reads the items, finds the values right and writes nothing. Where they differ (a
 * letter JavaScript lower-cases other than the database) the trigger writes its own.
 */
function itemRollup(own: ReadonlyArray<string | null | undefined>, items: readonly Insert<typeof schema.orderItems>[]) {
  const joined = (values: ReadonlyArray<string | null | undefined>) => values.map((value) => value ?? '').join(SEARCH_SEPARATOR);
  const inLineOrder = [...items].sort((a, b) => a.lineNumber - b.lineNumber || Number(a.id ?? 0) - Number(b.id ?? 0));
  const fields = (it: Insert<typeof schema.orderItems>): DeliveryFields => ({
    deliveryStatus: it.deliveryStatus ?? null,
    goodsReceiptPostedAt: it.goodsReceiptPostedAt ? it.goodsReceiptPostedAt.toISOString() : null,
    purchaseOrderGoodsReceiptQuantity: it.purchaseOrderGoodsReceiptQuantity ?? null,
  });
  const itemText = (it: Insert<typeof schema.orderItems>) =>
    SEARCH_SEPARATOR + joined([it.materialCode, it.materialDescription, it.reservationDocNumber, it.purchaseOrderDocNumber, it.salesOrderDocNumber, it.deliveryOrderDocNumber, it.trackingNumber]);
  const arrived = inLineOrder.map((it) => isArrived(fields(it)));
  const actionPoint = inLineOrder.map((it) => isActionPoint(fields(it)));
  /** The text of the items in a tab, for an order with items in and out of it (migration 0024). */
  const tabText = (inTab: boolean[]) => {
    const count = inTab.filter(Boolean).length;
    return count > 0 && count < inTab.length ? inLineOrder.filter((_, index) => inTab[index]).map(itemText).join('').toLowerCase() : null;
  };
  return {
    itemCount: items.length,
    arrivedItems: arrived.filter(Boolean).length,
    actionPointItems: actionPoint.filter(Boolean).length,
    searchText: (joined(own) + inLineOrder.map(itemText).join('')).toLowerCase(),
    arrivedText: tabText(arrived),
    incomingText: tabText(arrived.map((value) => !value)),
    actionPointText: tabText(actionPoint),
  };
}
