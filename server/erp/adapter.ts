/**
 * The ERP system behind stock-count submission. The default local adapter books a physical
 * inventory document itself; a company deployment replaces it with its SAP connector. The
 * failure mode (ERP_FAILURE=always) reproduces what an ERP rejection looks like, for tests and demos.
 * An adapter may throw when the ERP gives no answer (the outcome is then unknown): the submission
 * stays `submitted` and is asked again under the same reference.
 */
export interface PhysicalInventoryLine {
  materialCode: string;
  quantity: number;
  unit: string;
}

export interface PhysicalInventoryRequest {
  /**
   * The count's ERP reference (decision 0053): the same for every try and every submission of one
   * count (a retry after a lost answer, a server that stopped before saving the outcome, a new
   * submission after a refusal); a recount is another count, with its own. A connector books a
   * reference at most once and answers a repeat with the first booking's document: that is what
   * keeps a count from being booked twice. A refusal books nothing: the reference may book later.
   */
  reference: string;
  stockCountId: number;
  plant: string;
  storageLocation: string;
  lines: PhysicalInventoryLine[];
}

export type PhysicalInventoryResult =
  | { ok: true; documentNumber: string }
  | { ok: false; error: { type: string; code: string; message: string; details?: unknown } };

export interface ErpAdapter {
  postPhysicalInventory(request: PhysicalInventoryRequest): Promise<PhysicalInventoryResult>;
}

export function createLocalErpAdapter(options: { failure: 'none' | 'always' } = { failure: 'none' }): ErpAdapter {
  return {
    async postPhysicalInventory(request) {
      if (options.failure === 'always') {
        return {
          ok: false,
          error: {
            type: 'E',
            code: 'M7/021',
            message: `Physical inventory for plant ${request.plant}, storage location ${request.storageLocation} is blocked by a running posting`,
            details: { stockCountId: request.stockCountId, lines: request.lines.length },
          },
        };
      }
      // Document numbers as the ERP would give them: year + zero-padded count id.
      const documentNumber = `${new Date().getUTCFullYear()}${String(request.stockCountId).padStart(8, '0')}`;
      return { ok: true, documentNumber };
    },
  };
}
