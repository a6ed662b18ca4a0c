/** The seed's in-memory world: the shapes every section's builder reads. */
import type { InferInsertModel } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { AccountSpec } from '../../auth/demo-accounts';
import type * as schema from '../schema';
import { PLANTS, type PlantDef } from './data';
import type { StockBook } from './stock';

export type Insert<T extends PgTable> = InferInsertModel<T>;

export interface WorkCenter {
  plant: string;
  code: string;
  name: string;
  plannerGroup: string;
  van: string;
}

export interface SeedUser {
  id: string;
  spec: AccountSpec;
  row: Insert<typeof schema.users>;
}

export interface Material {
  code: string;
  descriptionEnglish: string;
  unit: string;
  materialGroup: string;
}

export type StockRow = Insert<typeof schema.stockItems> & { unrestrictedCount: string | null };

export interface World {
  now: Date;
  scale: number;
  workCenters: WorkCenter[];
  storageLocations: Insert<typeof schema.storageLocations>[];
  users: SeedUser[];
  materials: Material[];
  /** Stock rows per `${plant}/${storageLocation}`, in insertion order, drawn when asked for (stock.ts). */
  stock: StockBook;
  /** Mechanic e-mails per `${plant}/${workCenter}`. */
  mechanicsByWorkCenter: Map<string, string[]>;
  /** Access-point ids per ship-to-party in priority order. */
  accessPointsByShipTo: Map<string, string[]>;
}

export const plantDef = (code: string): PlantDef => {
  const plant = PLANTS.find((p) => p.code === code);
  if (!plant) throw new Error(`seed: unknown plant ${code}`);
  return plant;
};
