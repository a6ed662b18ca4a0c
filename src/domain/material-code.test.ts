import { describe, expect, it } from 'vitest';
import { isMaterialCodeLike } from './material-code';

describe('isMaterialCodeLike (#19 item 25)', () => {
  it.each(['KM123456', 'km123456', '12345678', 'FI01M001', 'AB-12', ' KM1 '])('%s looks like a material code', (term) => {
    expect(isMaterialCodeLike(term)).toBe(true);
  });
  it.each(['DOOR', 'door', 'door motor', 'KM 123', 'K', '1', '', 'a'.repeat(41) + '1', 'KM12*'])('%s does not', (term) => {
    expect(isMaterialCodeLike(term)).toBe(false);
  });
});
