/** Following an uploaded file: a failure of the moment is asked again; only a refusal or an outcome ends it. */
import { HTTPError } from 'ky';
import { describe, expect, it } from 'vitest';
import type { FileRow } from '../../../contract/dashboard';
import { followInterval } from './upload-erp-file';

const refusal = (status: number) => new HTTPError(new Response(null, { status }), new Request('http://localhost/user_api/v1/dashboard/files/x'), {} as never);
const row = (status: FileRow['status']) => ({ status }) as FileRow;

describe('following an uploaded file', () => {
  it('asks again while the file waits or is processed, and after a failed read (no connection, 502)', () => {
    expect(followInterval({ data: row('not_processed'), error: null })).toBe(5000);
    expect(followInterval({ data: row('in_progress'), error: null })).toBe(5000);
    expect(followInterval({ data: row('in_progress'), error: new TypeError('Failed to fetch') })).toBe(5000);
    expect(followInterval({ data: undefined, error: refusal(502) })).toBe(5000);
  });

  it('stops at the outcome, and at a refusal to follow it (403, 404)', () => {
    expect(followInterval({ data: row('processed'), error: null })).toBe(false);
    expect(followInterval({ data: row('errored'), error: null })).toBe(false);
    expect(followInterval({ data: row('in_progress'), error: refusal(404) })).toBe(false);
    expect(followInterval({ data: undefined, error: refusal(403) })).toBe(false);
  });
});
