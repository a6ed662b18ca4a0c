import { z } from './zod';
import { LOCALES } from '../domain/constants';

/** §3 Profile, every field. Dates are YYYY-MM-DD, instants ISO 8601. */
export const profile = z
  .object({
    uid: z.string(),
    email: z.string(),
    displayName: z.string(),
    licensed: z.boolean(),
    organisation: z.nullable(z.string()),
    approvalRequestId: z.nullable(z.string()),
    permissions: z.array(z.string()),
    locale: z.string(),
    isLocaleLocked: z.boolean(),
    managedShipToPartyNumbers: z.array(z.string()),
    phoneNumber: z.nullable(z.string()),
    expirationDate: z.nullable(z.string()),
    shipToPartyNumbers: z.array(z.string()),
    firstLogin: z.boolean(),
    importantMessages: z.array(z.string()),
    plants: z.array(z.string()),
    plannerGroups: z.array(z.string()),
    storageLocations: z.array(z.string()),
    workCenters: z.array(z.string()),
    lastLogin: z.nullable(z.string()),
  })
  .register(z.globalRegistry, { id: 'Profile' });
export type Profile = z.infer<typeof profile>;

export const updateProfileBody = z
  .strictObject({
    locale: z.optional(z.enum(LOCALES, { message: `locale must be one of ${LOCALES.join(', ')}` })),
    /** The first-login screen confirms it was shown; only `false` is accepted. */
    firstLogin: z.optional(z.literal(false)),
  })
  .check(
    z.refine((body) => body.locale !== undefined || body.firstLogin !== undefined, {
      message: 'Nothing to update: send locale or firstLogin',
    }),
  )
  .register(z.globalRegistry, { id: 'UpdateProfileRequest' });
export type UpdateProfileBody = z.infer<typeof updateProfileBody>;

export const permissionConstant = z.object({ ID: z.string(), LABEL: z.string(), DESCRIPTION: z.string() });
export const permissionConstants = z.array(permissionConstant).register(z.globalRegistry, { id: 'PermissionConstants' });
export type PermissionConstant = z.infer<typeof permissionConstant>;

export const allowedPlants = z
  .object({
    notifications_allowed_plants: z.array(z.string()),
    stock_count_allowed_plants: z.array(z.string()),
    count_deadline_allowed_plants: z.array(z.string()),
    show_zero_stock_material_plants: z.array(z.string()),
  })
  .register(z.globalRegistry, { id: 'AllowedPlants' });
