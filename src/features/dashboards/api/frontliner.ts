/** The front-liner dashboard's calls (§7 stock service), parsed with their contract schemas. */
import { occupancyResponse, relationshipResponse, type OccupancyReport, type Relationships } from '../../../contract/stock';
import { stockApi, toSearchParams } from '../../../lib/api-client';

export interface OccupancyFilter {
  start_date: string;
  end_date: string;
  plant?: string;
  planner_group?: string;
  conducted_by?: string;
}

/** GET /api/v2/relationship/plant: the plants the caller may see (every plant for super managers). */
export const getPlants = async (): Promise<Relationships> => relationshipResponse.parse(await stockApi.get('relationship/plant').json());

/** GET /api/v2/my_stock_count/occupancy_report: tasks per person counting, with the total row. */
export const getOccupancyReport = async (filter: OccupancyFilter): Promise<OccupancyReport> =>
  occupancyResponse.parse(await stockApi.get('my_stock_count/occupancy_report', { searchParams: toSearchParams({ ...filter }) }).json());
