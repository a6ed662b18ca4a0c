/**
 * A feedback form's quantities are read as the app reads typed quantities, and one written with
 * the language's thousands separator ("1.250" in German) is refused, not sent as 1.25.
 */
import { describe, expect, it } from 'vitest';
import { groupedQuantityFields } from './feedback-form';

describe('quantities typed into a feedback form', () => {
  it('finds the quantity fields written with the language’s thousands separator', () => {
    expect(groupedQuantityFields('ReportStockDifference', { bookQuantity: '1.250', countedQuantity: '1,5' }, 'de-DE')).toEqual(['bookQuantity']);
    expect(groupedQuantityFields('ReportStockDifference', { bookQuantity: '1,250', countedQuantity: '12,500' }, 'en-US')).toEqual(['bookQuantity', 'countedQuantity']);
    expect(groupedQuantityFields('RequestStockTransfer', { quantity: '10.000' }, 'de-DE')).toEqual(['quantity']);
  });

  it('leaves a decimal as the language writes it, and fields that are no quantity', () => {
    expect(groupedQuantityFields('ReportStockDifference', { bookQuantity: '1,5', countedQuantity: '1,250' }, 'de-DE')).toEqual([]);
    expect(groupedQuantityFields('ReportStockDifference', { bookQuantity: '1.5', countedQuantity: '1.250' }, 'en-US')).toEqual([]);
    expect(groupedQuantityFields('RequestStockTransfer', { quantity: '', storageLocationFrom: '1.250' }, 'de-DE')).toEqual([]);
    expect(groupedQuantityFields('Feedback', { openFeedback: '1.250' }, 'de-DE')).toEqual([]);
  });
});
