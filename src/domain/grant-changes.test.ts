import { describe, expect, it } from 'vitest';
import {
  attachmentHolderRefusals,
  attachmentsLeavingWith,
  editScopeOf,
  grantRefusals,
  mayChangeShipToParties,
  refusedChanges,
  userPlantsInScope,
  withoutLeaving,
} from './grant-changes';

describe('attachments that leave with a removed grant', () => {
  const plant = { kind: 'plant' as const, plant: 'FI01', code: 'FI01' };
  const workCenter = { kind: 'work_center' as const, plant: 'FI01', code: 'FI01M001' };
  const van = { kind: 'storage_location' as const, plant: 'FI01', code: 'V001' };
  const mechanic = { grants: ['mechanic'], attachments: [plant, workCenter, van] };

  it('are what the wanted grants can no longer hold, and nothing else', () => {
    expect(attachmentsLeavingWith(mechanic, { grants: ['supervisor'], attachments: mechanic.attachments })).toEqual([workCenter]);
    expect(attachmentsLeavingWith(mechanic, { grants: [], attachments: mechanic.attachments })).toEqual([plant, workCenter]);
    expect(attachmentsLeavingWith(mechanic, { grants: ['mechanic', 'supervisor'], attachments: mechanic.attachments })).toEqual([]);
    // Added in the same change, or carried without a holder before: not this edit's to drop.
    expect(attachmentsLeavingWith({ grants: ['supervisor'], attachments: [plant, workCenter] }, { grants: ['PM_read'], attachments: [plant, workCenter] })).toEqual([plant]);
  });

  it('are the grant’s to remove: a stock admin changes a mechanic’s role, not their work centres alone', () => {
    const stockAdmin = { grants: ['stock_admin'], plants: ['FI01'] };
    const asked = { grants: ['supervisor'], attachments: mechanic.attachments };
    const after = withoutLeaving(mechanic, asked);
    expect(after.attachments).toEqual([plant, van]);
    expect(refusedChanges(stockAdmin, mechanic, after, ['FI01'])).toEqual([]);
    expect(refusedChanges(stockAdmin, mechanic, { grants: ['mechanic'], attachments: [plant, van] }, ['FI01'])).toEqual(['you may not remove work center FI01/FI01M001']);
    // The same whether the request still lists them or already left them out.
    const dropped = { grants: ['supervisor'], attachments: [plant, van] };
    expect(refusedChanges(stockAdmin, mechanic, withoutLeaving(mechanic, dropped), ['FI01'])).toEqual([]);
  });

  it('do not reach into plants a plant-scoped editor does not work in', () => {
    const stockAdmin = { grants: ['stock_admin'], plants: ['FI01'] };
    const german = { kind: 'plant' as const, plant: 'DE02', code: 'DE02' };
    const germanWorkCenter = { kind: 'work_center' as const, plant: 'DE02', code: 'DE02M001' };
    const twoPlants = { grants: ['mechanic'], attachments: [plant, german, workCenter, germanWorkCenter] };
    const asked = { grants: ['supervisor'], attachments: twoPlants.attachments };
    expect(refusedChanges(stockAdmin, twoPlants, withoutLeaving(twoPlants, asked), ['FI01', 'DE02'])).toEqual([
      'work center DE02/DE02M001 is outside your plants (FI01)',
      // The role acts in DE02 too (roles are global).
      'you may grant supervisor only for users all of whose plants are yours (FI01)',
      'you may remove mechanic only for users all of whose plants are yours (FI01)',
    ]);
    // A super manager is not plant-scoped.
    expect(refusedChanges({ grants: ['super_manager'], plants: [] }, twoPlants, withoutLeaving(twoPlants, asked), ['FI01', 'DE02'])).toEqual([]);
  });
});

describe('rights that reach beyond what the editor may give', () => {
  const fi01 = { kind: 'plant' as const, plant: 'FI01', code: 'FI01' };
  const se01 = { kind: 'plant' as const, plant: 'SE01', code: 'SE01' };
  const stockAdmin = { grants: ['stock_admin'], plants: ['FI01'] };

  it('a role given under plant scope acts in every plant of the user: all of them must be the editor\'s', () => {
    const twoPlants = { grants: [], attachments: [fi01, se01] };
    expect(refusedChanges(stockAdmin, twoPlants, { grants: ['mechanic'], attachments: [fi01, se01] }, ['FI01', 'SE01'])).toEqual([
      'you may grant mechanic only for users all of whose plants are yours (FI01)',
    ]);
    const onePlant = { grants: [], attachments: [fi01] };
    expect(refusedChanges(stockAdmin, onePlant, { grants: ['mechanic'], attachments: [fi01] }, ['FI01'])).toEqual([]);
  });

  it('one who gives PM read only does not change the ship-to-party numbers of a priority writer', () => {
    const granter = { grants: ['UM_PM_grant_read'], plants: [] };
    const number = { kind: 'ship_to_party' as const, plant: '', code: '0050010999' };
    const writer = { grants: ['PM_write'], attachments: [] };
    expect(refusedChanges(granter, writer, { grants: ['PM_write'], attachments: [number] }, [])).toEqual([
      'you may not change the ship-to-party numbers of a user who writes or uploads priorities (you give PM read only)',
    ]);
    const reader = { grants: ['PM_read'], attachments: [] };
    expect(refusedChanges(granter, reader, { grants: ['PM_read'], attachments: [number] }, [])).toEqual([]);
    expect(refusedChanges({ grants: ['UM_PM_grant_write'], plants: [] }, writer, { grants: ['PM_write'], attachments: [number] }, [])).toEqual([]);
  });
});

describe('refusals in the reader’s language, and the rules the dialog offers by', () => {
  const fi01 = { kind: 'plant' as const, plant: 'FI01', code: 'FI01' };
  const se01 = { kind: 'plant' as const, plant: 'SE01', code: 'SE01' };
  const stockAdmin = { grants: ['stock_admin'], plants: ['FI01'] };

  it('give each refusal a code and parameters beside the English', () => {
    const twoPlants = { grants: [], attachments: [fi01, se01] };
    expect(grantRefusals(stockAdmin, twoPlants, { grants: ['mechanic', 'PM_read'], attachments: [fi01, se01, { kind: 'storage_location', plant: 'SE01', code: '0001' }] }, ['FI01', 'SE01'])).toEqual([
      { message: 'you may not grant PM_read', code: 'grantGiveNotAllowed', params: { grant: 'PM_read' } },
      { message: 'you may grant mechanic only for users all of whose plants are yours (FI01)', code: 'grantPlantsNotYours', params: { grant: 'mechanic', plants: 'FI01' } },
      {
        message: 'storage location SE01/0001 is outside your plants (FI01)',
        code: 'attachmentOutsidePlants',
        params: { kind: 'storage_location', attachment: 'SE01/0001', plants: 'FI01' },
      },
    ]);
    // An editor without plants: "none" in English, a dash in the parameters (any language).
    expect(grantRefusals({ grants: ['stock_admin'], plants: [] }, twoPlants, { grants: ['mechanic'], attachments: twoPlants.attachments }, ['FI01', 'SE01'])[0]).toMatchObject({
      message: 'you may grant mechanic only for users all of whose plants are yours (none)',
      params: { plants: '–' },
    });
    const workCenter = { kind: 'work_center' as const, plant: 'FI01', code: 'FI01M001' };
    expect(attachmentHolderRefusals({ grants: ['supervisor'], attachments: [fi01] }, { grants: ['supervisor'], attachments: [fi01, workCenter] })).toEqual([
      { message: 'work center FI01/FI01M001 can be attached only to mechanic', code: 'attachmentNeedsHolder', params: { kind: 'work_center', attachment: 'FI01/FI01M001', holders: 'mechanic' } },
    ]);
  });

  it('lock a plant-scoped role unless every plant of the user, before and after, is the editor’s', () => {
    const scope = editScopeOf(stockAdmin);
    expect(userPlantsInScope(scope, ['FI01'], { grants: [], attachments: [fi01] })).toBe(true);
    expect(userPlantsInScope(scope, ['FI01', 'SE01'], { grants: [], attachments: [fi01, se01] })).toBe(false);
    // A plant added in the same change counts, and a user without plants is nobody's.
    expect(userPlantsInScope(scope, ['FI01'], { grants: [], attachments: [fi01, se01] })).toBe(false);
    expect(userPlantsInScope(scope, [], { grants: [], attachments: [] })).toBe(false);
  });

  it('keep a PM-read granter off the ship-to-party numbers of a priority writer, before or after the change', () => {
    const readGranter = editScopeOf({ grants: ['UM_PM_grant_read'], plants: [] });
    expect(mayChangeShipToParties(readGranter, ['PM_read'], ['PM_read'])).toBe(true);
    expect(mayChangeShipToParties(readGranter, ['PM_write'], ['PM_write'])).toBe(false);
    expect(mayChangeShipToParties(readGranter, ['PM_read'], ['PM_read', 'PM_upload_add'])).toBe(false);
    expect(mayChangeShipToParties(editScopeOf({ grants: ['UM_PM_grant_write'], plants: [] }), ['PM_write'], ['PM_write'])).toBe(true);
  });
});
