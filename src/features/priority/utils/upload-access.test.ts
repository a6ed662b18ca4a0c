/** Priority uploads need ship-to-party numbers of one's own; adding numbers does not. */
import { describe, expect, it } from 'vitest';
import { uploadNeedsNumbers } from './upload-access';

describe('priority uploads without ship-to-party numbers', () => {
  it('are bound to fail for an uploader holding no number', () => {
    expect(uploadNeedsNumbers('add', ['PM_upload_add'], [])).toBe(true);
    expect(uploadNeedsNumbers('disable', ['PM_upload_disable'], [])).toBe(true);
    // A read-only super manager changes only the numbers it holds (decision 0065).
    expect(uploadNeedsNumbers('add', ['super_manager_read_only', 'PM_upload_add'], [])).toBe(true);
  });

  it('can work with a number held, for the super manager, and always for adding numbers', () => {
    expect(uploadNeedsNumbers('add', ['PM_upload_add'], ['0050010001'])).toBe(false);
    expect(uploadNeedsNumbers('disable', ['super_manager'], [])).toBe(false);
    expect(uploadNeedsNumbers('shipToParty', ['PM_write'], [])).toBe(false);
  });
});
