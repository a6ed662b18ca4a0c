/**
 * A priority file's apply is sent once per content: applied again after no answer, also after the
 * dialog was closed and the file chosen again, it goes under the first try's Idempotency-Key (the
 * server answers it from that try instead of applying it twice). A dry run sends no key.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userApi } from '../../../lib/api-client';
import { uploadPriorityCsv, UploadUnanswered } from './upload-priority-csv';

const answer = { kind: 'add', dryRun: false, rowCount: 1, changed: 1, unchanged: 0, rows: [], errors: [], shipToParty: null };
const csv = (text: string) => new File([text], 'priorities.csv', { type: 'text/csv' });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('applying a priority file', () => {
  it('goes again under the first key after no answer, even as a new File of the same bytes; a changed file and a file answered go anew', async () => {
    const post = vi.spyOn(userApi, 'post').mockImplementationOnce(() => {
      throw new TypeError('Failed to fetch');
    });
    post.mockReturnValue({ json: async () => answer } as never);
    const keyOf = (call: number) => (post.mock.calls[call]![1] as { headers: Record<string, string> }).headers['idempotency-key'];

    await expect(uploadPriorityCsv('add', csv('shipToPartyCode;accessPointId;priority\n1;A;1\n'), { dryRun: false })).rejects.toBeInstanceOf(UploadUnanswered);
    // The dialog closed and opened again: the same bytes chosen anew.
    await uploadPriorityCsv('add', csv('shipToPartyCode;accessPointId;priority\n1;A;1\n'), { dryRun: false });
    expect(keyOf(0)).toMatch(/^[0-9a-f-]{36}$/);
    expect(keyOf(1)).toBe(keyOf(0));
    // Answered: the same file applied once more is a new apply.
    await uploadPriorityCsv('add', csv('shipToPartyCode;accessPointId;priority\n1;A;1\n'), { dryRun: false });
    expect(keyOf(2)).not.toBe(keyOf(0));

    // Another content after no answer is another apply.
    post.mockImplementationOnce(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(uploadPriorityCsv('add', csv('shipToPartyCode;accessPointId;priority\n1;A;2\n'), { dryRun: false })).rejects.toBeInstanceOf(UploadUnanswered);
    await uploadPriorityCsv('add', csv('shipToPartyCode;accessPointId;priority\n1;A;3\n'), { dryRun: false });
    expect(keyOf(4)).not.toBe(keyOf(3));
  });

  it('checks (dry run) without a key', async () => {
    const post = vi.spyOn(userApi, 'post').mockReturnValue({ json: async () => ({ ...answer, dryRun: true }) } as never);
    await uploadPriorityCsv('disable', csv('x'), { dryRun: true });
    const options = post.mock.calls[0]![1] as { headers: Record<string, string>; searchParams: unknown };
    expect(options.headers['idempotency-key']).toBeUndefined();
    expect(options.searchParams).toEqual({ dryRun: 'true' });
  });
});
