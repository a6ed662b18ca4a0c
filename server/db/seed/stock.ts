/** Parts (materials) and the stock of every storage location. */
import { DEMO_MECHANIC } from '../../auth/demo-accounts';
import type * as schema from '../schema';
import { MODEL_SERIES, PART_CATALOG } from './data';
import { plantDef, type Insert, type Material, type StockRow, type WorkCenter } from './model';
import { pad, Random } from './random';
import { MATERIAL_COUNT } from './scale';
import { addHours } from './time';

export function buildMaterials(): Material[] {
  const rng = new Random('materials');
  // Every part × variant × series combination is a distinct description; take 2,000 of them.
  const combos: Array<{ part: (typeof PART_CATALOG)[number]; variant: string; series: string }> = [];
  for (const part of PART_CATALOG) {
    const variants = part.variants.length > 0 ? part.variants : [''];
    for (const variant of variants) for (const series of MODEL_SERIES) combos.push({ part, variant, series });
  }
  const codes = new Set<string>();
  return rng.sample(combos, MATERIAL_COUNT).map(({ part, variant, series }) => {
    let code: string;
    do {
      // Two code families exist in the ERP: "KM" + 6 digits and plain 8-digit numbers.
      code = rng.chance(0.7) ? `KM${rng.digits(6)}` : `${rng.int(1, 9)}${rng.digits(7)}`;
    } while (codes.has(code));
    codes.add(code);
    return {
      code,
      descriptionEnglish: [part.name, variant, series].filter(Boolean).join(', '),
      unit: part.unit,
      materialGroup: part.group,
    };
  });
}

/** A count in the unit's natural granularity: whole pieces, decimal metres, half kilos. */
export function stockQuantity(rng: Random, unit: string, max: number): string {
  switch (unit) {
    case 'M':
      return (Math.round(rng.float(0, max * 10) * 10) / 10).toFixed(1);
    case 'KG':
      return (Math.round(rng.float(0, max) * 2) / 2).toFixed(1);
    default:
      return String(Math.floor(rng.next() ** 2 * (max + 1)));
  }
}

function buildStockRows(rng: Random, now: Date, location: Insert<typeof schema.storageLocations>, materials: readonly Material[], workCenter: WorkCenter | undefined): StockRow[] {
  const plant = plantDef(location.plant);
  const isWarehouse = !workCenter;
  const isDemoVan = location.plant === DEMO_MECHANIC.plant && location.code === DEMO_MECHANIC.storageLocation;
  // The demo van is fuller than usual so its wall-to-wall count has ≥ 300 lines.
  const size = isDemoVan ? 380 : location.code === '0001' ? rng.int(450, 600) : location.code === '0002' ? rng.int(120, 200) : rng.int(160, 320);
  const picked = rng.sample(materials, size).sort((a, b) => a.code.localeCompare(b.code));
  const maxCount = isWarehouse ? 40 : 8;
  return picked.map((material) => {
    const isZero = rng.chance(0.1);
    const isUnknown = rng.chance(0.01);
    const hasReorder = rng.chance(isWarehouse ? 0.7 : 0.4);
    return {
      plant: location.plant,
      storageLocation: location.code,
      materialCode: material.code,
      bin: rng.chance(0.1) ? null : isWarehouse ? `${rng.pick(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'])}-${pad(rng.int(1, 24), 2)}-${rng.int(1, 5)}` : `D-${pad(rng.int(1, 12), 2)}-${rng.int(1, 3)}`,
      unrestrictedCount: isUnknown ? null : isZero ? '0' : stockQuantity(rng, material.unit, maxCount),
      qualityInspectionCount: rng.chance(0.03) ? String(rng.int(1, 3)) : '0',
      blockedCount: rng.chance(0.04) ? String(rng.int(1, 2)) : '0',
      restrictedCount: '0',
      // A few rows miss a count: §3 "total quantity is null if any count is not a number".
      transferCount: rng.chance(0.01) ? null : rng.chance(0.05) ? String(rng.int(1, 4)) : '0',
      reorderPoint: hasReorder ? String(isWarehouse ? rng.int(2, 20) : rng.int(1, 3)) : null,
      reorderQuantity: hasReorder ? String(isWarehouse ? rng.int(5, 50) : rng.int(2, 6)) : null,
      plannerGroups: workCenter ? [workCenter.plannerGroup] : plant.plannerGroups.map((pg) => pg.code),
      workCenters: workCenter ? [workCenter.code] : [],
      updatedAt: addHours(now, -rng.int(1, 96)),
    };
  });
}

/**
 * The stock of every storage location, never held whole (#16: 2 million rows at scale 500). One
 * pass at the start reads the 'stock' stream once and notes where each location's rows begin in
 * it (a mulberry32 position is one number); a location's rows are then drawn again from there
 * when asked for (get), and all rows, location after location, by one more pass (rows). The rows
 * are exactly those the former all-in-memory Map held, in the same order.
 */
export class StockBook {
  /** Per location key: the location and where its rows begin in the 'stock' stream. */
  private readonly starts = new Map<string, { location: Insert<typeof schema.storageLocations>; position: number }>();
  private readonly wcByCode: Map<string, WorkCenter>;
  /** Rows of all locations. */
  readonly rowCount: number;

  constructor(
    private readonly now: Date,
    private readonly locations: readonly Insert<typeof schema.storageLocations>[],
    workCenters: readonly WorkCenter[],
    private readonly materials: readonly Material[],
  ) {
    this.wcByCode = new Map(workCenters.map((wc) => [`${wc.plant}/${wc.code}`, wc]));
    const rng = new Random('stock');
    let count = 0;
    for (const location of locations) {
      this.starts.set(StockBook.keyOf(location), { location, position: rng.position() });
      count += this.draw(rng, location).length;
    }
    this.rowCount = count;
  }

  static keyOf(location: Insert<typeof schema.storageLocations>): string {
    return `${location.plant}/${location.code}`;
  }

  private draw(rng: Random, location: Insert<typeof schema.storageLocations>): StockRow[] {
    const wc = location.workCenter ? this.wcByCode.get(`${location.plant}/${location.workCenter}`) : undefined;
    return buildStockRows(rng, this.now, location, this.materials, wc);
  }

  /** The rows of `${plant}/${storageLocation}`, in insertion order (undefined: no such location). */
  get(key: string): StockRow[] | undefined {
    const start = this.starts.get(key);
    return start ? this.draw(Random.at(start.position), start.location) : undefined;
  }

  /** Each location's rows in turn, drawn as they are asked for. */
  *perLocation(): Generator<StockRow[]> {
    const rng = new Random('stock');
    for (const location of this.locations) yield this.draw(rng, location);
  }

  /** Every row, location after location (the insertion order). */
  *rows(): Generator<StockRow> {
    for (const rows of this.perLocation()) yield* rows;
  }

  /** The first `count` rows of that order. */
  firstRows(count: number): StockRow[] {
    const out: StockRow[] = [];
    for (const rows of this.perLocation()) {
      for (const row of rows) {
        if (out.length >= count) return out;
        out.push(row);
      }
    }
    return out;
  }
}

export function buildStock(now: Date, locations: readonly Insert<typeof schema.storageLocations>[], workCenters: readonly WorkCenter[], materials: readonly Material[]): StockBook {
  return new StockBook(now, locations, workCenters, materials);
}
