import { beforeEach, describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../../tests/setup/memory-storage';
import { dismissUnit, forgetUnits, noteUnitLearned, unitLearned, unitScope } from './unit-notices';

const mine = unitScope('mechanic@example.com', 27);

describe('unit notices', () => {
  beforeEach(() => {
    Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true });
  });

  it('keeps a learned unit per user, count and line until it is seen', () => {
    noteUnitLearned(mine, 'KM000001', 'M');
    expect(unitLearned(mine, 'KM000001')).toBe('M');
    expect(unitLearned(unitScope('other@example.com', 27), 'KM000001')).toBeUndefined();
    expect(unitLearned(unitScope('mechanic@example.com', 28), 'KM000001')).toBeUndefined();
    dismissUnit(mine, 'KM000001');
    expect(unitLearned(mine, 'KM000001')).toBeUndefined();
    expect(localStorage.getItem(`count-unit:${mine}`)).toBeNull();
  });

  it('stays in this tab when storage refuses it, and is forgotten with its count', () => {
    noteUnitLearned(mine, 'KM000002', 'KG');
    const full = new MemoryStorage();
    full.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    Object.defineProperty(globalThis, 'localStorage', { value: full, configurable: true });
    noteUnitLearned(mine, 'KM000003', 'L');
    expect(unitLearned(mine, 'KM000003')).toBe('L');
    forgetUnits(mine);
    expect(unitLearned(mine, 'KM000003')).toBeUndefined();
  });
});
