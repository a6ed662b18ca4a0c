/** The world every section builds on: plants' work centers and storage locations, people, parts, stock. */
import type * as schema from '../schema';
import { ACCESS_POINTS, PLANTS, SHIP_TO_PARTIES } from './data';
import type { Insert, WorkCenter, World } from './model';
import { item, pad, Random } from './random';
import { vansPerPlant } from './scale';
import { buildMaterials, buildStock } from './stock';
import { buildUsers, isExpired } from './users';

function buildWorkCenters(scale: number): WorkCenter[] {
  const centers: WorkCenter[] = [];
  for (const plant of PLANTS) {
    const count = vansPerPlant(scale);
    for (let i = 0; i < count; i++) {
      const district = item(plant.districts, i % plant.districts.length);
      const round = Math.floor(i / plant.districts.length);
      centers.push({
        plant: plant.code,
        code: `${plant.code}M${pad(i + 1, 3)}`,
        name: `Maintenance route ${district}${round > 0 ? ` ${round + 1}` : ''}`,
        // Pairs of routes share a planner group, so a mechanic always has a team (§2 My team stock).
        plannerGroup: item(plant.plannerGroups, Math.floor(i / 2) % plant.plannerGroups.length).code,
        van: `V${pad(i + 1, 3)}`,
      });
    }
  }
  return centers;
}

function buildStorageLocations(workCenters: readonly WorkCenter[]): Insert<typeof schema.storageLocations>[] {
  const warehouses = PLANTS.flatMap((plant) => [
    { plant: plant.code, code: '0001', name: 'Central warehouse', workCenter: null },
    { plant: plant.code, code: '0002', name: 'Modernization project stock', workCenter: null },
  ]);
  const vans = workCenters.map((wc) => ({
    plant: wc.plant,
    code: wc.van,
    name: `Service van ${wc.name.replace('Maintenance route ', '')}`,
    workCenter: wc.code,
  }));
  return [...warehouses, ...vans];
}

export function buildWorld(now: Date, scale: number): World {
  const workCenters = buildWorkCenters(scale);
  const storageLocations = buildStorageLocations(workCenters);
  const materials = buildMaterials();
  const users = buildUsers(now, workCenters);
  const mechanicsByWorkCenter = new Map<string, string[]>();
  for (const user of users) {
    if (!user.spec.grants.includes('mechanic') || isExpired(user, now)) continue;
    for (const a of user.spec.attachments.filter((x) => x.kind === 'work_center')) {
      const key = `${a.plant}/${a.code}`;
      mechanicsByWorkCenter.set(key, [...(mechanicsByWorkCenter.get(key) ?? []), user.spec.email]);
    }
  }
  const accessPointsByShipTo = new Map<string, string[]>();
  const apRng = new Random('access-points');
  for (const stp of SHIP_TO_PARTIES) {
    // Nearest first: access points in the ship-to-party's own city, then elsewhere in the country.
    const city = stp.address.split(' ').at(-1) ?? '';
    const local = ACCESS_POINTS.filter((ap) => ap.country === stp.country);
    const near = apRng.sample(local.filter((ap) => ap.city === city), local.length);
    const far = apRng.sample(local.filter((ap) => ap.city !== city), local.length);
    accessPointsByShipTo.set(stp.code, [...near, ...far].slice(0, apRng.int(3, 5)).map((ap) => ap.id));
  }
  return {
    now,
    scale,
    workCenters,
    storageLocations,
    users,
    materials,
    stock: buildStock(now, storageLocations, workCenters, materials),
    mechanicsByWorkCenter,
    accessPointsByShipTo,
  };
}
