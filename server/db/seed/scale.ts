/** What `scale` multiplies: vans (and thus stock rows), orders and stock counts. */

/** Vans per plant: 4 at scale 1; each further unit adds 6 (≈ 72k stock rows at scale 50 per plant). */
export const vansPerPlant = (scale: number): number => Math.max(4, Math.round(6 * scale) - 2);
/** 300 orders at scale 1; each further unit adds 900 so scale 50 passes 100k order items. */
export const orderCount = (scale: number): number =>
  scale <= 1 ? Math.max(30, Math.round(300 * scale)) : Math.round(300 + 900 * (scale - 1));
export const extraStockCounts = (scale: number): number => Math.max(6, Math.round(24 * scale));
export const MATERIAL_COUNT = 2_000;
