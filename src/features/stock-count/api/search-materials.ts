import { queryOptions, useQuery } from '@tanstack/react-query';
import { myMaterialResponse, type MyMaterialPage } from '../../../contract/stock';
import { stockApi, toSearchParams } from '../../../lib/api-client';
import { mirrorKey, networkFirst } from '../../../offline/mirror';

/**
 * A catalogue answer, and whether it is the server's whole answer: every match listed (no next
 * page), read from the server now, not the device's copy. Then a code it does not list is not in
 * the catalogue, and the server would refuse the line.
 */
export type MaterialSearch = MyMaterialPage & { complete: boolean };

/** GET /api/v2/my_material: materials to add to a count; each answer is mirrored for offline. */
export async function searchMaterials(email: string, materialCode: string): Promise<MaterialSearch> {
  const result = await networkFirst({
    key: mirrorKey(email, ['my-material', materialCode.toLowerCase()]),
    scope: 'my-material',
    fetcher: async () => myMaterialResponse.parse(await stockApi.get('my_material', { searchParams: toSearchParams({ materialCode, maxResults: 20, page: 1 }) }).json()),
  });
  return { ...result.data, complete: result.source === 'network' && !result.data.has_next };
}

export const materialSearchQuery = (email: string, materialCode: string) =>
  queryOptions({
    queryKey: ['my-material', email, materialCode.toLowerCase()] as const,
    queryFn: () => searchMaterials(email, materialCode),
    enabled: materialCode.trim().length >= 2,
    staleTime: 5 * 60_000,
    meta: { silent: true },
  });

export const useMaterialSearch = (email: string, materialCode: string) => useQuery(materialSearchQuery(email, materialCode));
