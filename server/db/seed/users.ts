/** The seed's people: the demo accounts and each plant's staff. */
import { ACCOUNT_SPECS, perPlant, plantAt, type AccountSpec, type AttachmentSpec } from '../../auth/demo-accounts';
import { STAFF } from './data';
import { plantDef, type SeedUser, type WorkCenter } from './model';
import { item, Random } from './random';
import { addDays, addHours, isoDate } from './time';

function staffSpecs(workCenters: readonly WorkCenter[]): AccountSpec[] {
  return STAFF.map((staff) => {
    const plant = plantDef(staff.plant);
    const attachments: AttachmentSpec[] = [plantAt(staff.plant)];
    if (staff.role === 'mechanic') {
      const wc = item(workCenters.filter((w) => w.plant === staff.plant), staff.workCenterIndex ?? 0);
      attachments.push(perPlant('work_center', wc.plant, wc.code), perPlant('storage_location', wc.plant, wc.van));
    } else if (staff.plannerGroup) {
      attachments.push(perPlant('planner_group', staff.plant, staff.plannerGroup));
    }
    return {
      email: staff.email,
      displayName: staff.displayName,
      grants: [staff.role],
      note: `${staff.role} in ${staff.plant}`,
      attachments,
      expiresInDays: staff.expiresInDays,
      locale: plant.staffLocale,
      organisation: plant.organisation,
    };
  });
}

export function buildUsers(now: Date, workCenters: readonly WorkCenter[]): SeedUser[] {
  const rng = new Random('users');
  return [...ACCOUNT_SPECS, ...staffSpecs(workCenters)].map((spec) => {
    const id = rng.uuid();
    const homePlant = spec.attachments.find((a) => a.kind === 'plant')?.plant;
    const phone = spec.phoneNumber ?? (homePlant ? `${plantDef(homePlant).phonePrefix}${rng.digits(7)}` : null);
    const createdAt = addDays(now, -rng.int(90, 400));
    return {
      id,
      spec,
      row: {
        id,
        email: spec.email,
        displayName: spec.displayName,
        licensed: true,
        organisation: spec.organisation ?? (homePlant ? plantDef(homePlant).organisation : 'Lift Service Group'),
        locale: spec.locale ?? 'en-US',
        isLocaleLocked: false,
        phoneNumber: phone,
        expirationDate: spec.expiresInDays === undefined ? null : isoDate(addDays(now, spec.expiresInDays)),
        firstLogin: spec.pending === true,
        approvalStatus: spec.pending ? 'Pending' : 'Approved',
        lastLoginAt: spec.pending ? null : addHours(now, spec.expiresInDays === -1 ? -24 * 9 : -rng.int(1, 72)),
        createdAt: spec.pending ? addHours(now, -3) : createdAt,
        updatedAt: spec.pending ? addHours(now, -3) : addDays(createdAt, rng.int(0, 30)),
      },
    };
  });
}

export const isExpired = (user: SeedUser, now: Date): boolean =>
  user.row.expirationDate !== null && user.row.expirationDate !== undefined && user.row.expirationDate < isoDate(now);
