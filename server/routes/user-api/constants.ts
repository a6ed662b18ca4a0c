import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asc } from 'drizzle-orm';
import { allowedPlants as allowedPlantsBody, permissionConstants } from '../../../src/contract/user-api';
import type { Db } from '../../db/client';
import { allowedPlants, grants } from '../../db/schema';

export const constantsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/constants/permissions',
    { schema: { tags: ['user'], summary: 'Roles and permissions of §6', response: { 200: permissionConstants } } },
    async () => {
      const rows = await db.select().from(grants).orderBy(asc(grants.kind), asc(grants.id));
      return rows.map((row) => ({ ID: row.id, LABEL: row.label, DESCRIPTION: row.description }));
    },
  );

  app.get(
    '/system_parameters/allowed_plants',
    { schema: { tags: ['user'], summary: 'The four allowed-plant lists (§3)', response: { 200: allowedPlantsBody } } },
    async () => {
      const rows = await db.select().from(allowedPlants).orderBy(asc(allowedPlants.plant));
      const of = (parameter: string) => rows.filter((row) => row.parameter === parameter).map((row) => row.plant);
      return {
        notifications_allowed_plants: of('notifications_allowed_plants'),
        stock_count_allowed_plants: of('stock_count_allowed_plants'),
        count_deadline_allowed_plants: of('count_deadline_allowed_plants'),
        show_zero_stock_material_plants: of('show_zero_stock_material_plants'),
      };
    },
  );
};
