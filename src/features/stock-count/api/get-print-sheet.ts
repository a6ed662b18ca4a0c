import type { z } from 'zod/mini';
import { printMaterialsResponse } from '../../../contract/stock';
import { stockApi, toSearchParams } from '../../../lib/api-client';

export type PrintSheet = z.infer<typeof printMaterialsResponse>;

/** GET /api/v2/relationship/print_materials?stockCountId=: a count's lines by bin, for its printed sheet. */
export const getPrintSheet = async (stockCountId: number): Promise<PrintSheet> =>
  printMaterialsResponse.parse(await stockApi.get('relationship/print_materials', { searchParams: toSearchParams({ stockCountId }) }).json());
