/**
 * §6 user administration as pure rules, shared by the server (which refuses) and the browser
 * (which offers only what the editor may change): who may change which grant and attachment of
 * another user, and which attachments a user's grants may carry.
 *
 * - super_manager changes everything; UM_PM_grant_read / UM_PM_grant_write change PM_read /
 *   PM_write and the plants, planner groups, ship-to-party numbers and work centers that go with
 *   them; stock_admin changes the stock-count roles (mechanic, supervisor) of users of its plants
 *   and storage locations of its plants (GRANTABLE in permissions.ts).
 * - Only what CHANGES is checked: an edit that leaves a grant as it was never needs the right
 *   to give it.
 * - An attachment must be carried by a grant §6 attaches it to (ATTACHMENT_HOLDERS); attachments
 *   that were already inconsistent before the edit are left alone, not blamed on the editor.
 */
import {
  ATTACHMENT_HOLDERS,
  GRANTABLE,
  isGrant,
  mayHoldAttachment,
  type AttachmentKind,
  type Grant,
} from './permissions';

export interface AttachmentRef {
  kind: AttachmentKind;
  /** '' for kinds that are not per plant (ship-to-party numbers). */
  plant: string;
  code: string;
}

export interface GrantState {
  grants: readonly string[];
  attachments: readonly AttachmentRef[];
}

export interface GrantEditor {
  grants: readonly string[];
  /** The editor's own plants (stock_admin's scope). */
  plants: readonly string[];
}

/** Kinds whose attachments belong to a plant; the others carry plant ''. */
export const PER_PLANT_KINDS: readonly AttachmentKind[] = ['plant', 'planner_group', 'work_center', 'storage_location'];

/** Granters whose rights hold only inside their own plants (§6: "of its plants"). */
const PLANT_SCOPED_GRANTERS: readonly Grant[] = ['stock_admin'];

export const attachmentKey = (a: AttachmentRef) => `${a.kind}|${a.plant}|${a.code}`;

export function describeAttachment(a: AttachmentRef): string {
  const name = a.kind.replaceAll('_', ' ');
  if (a.kind === 'plant' || a.plant === '') return `${name} ${a.code}`;
  return `${name} ${a.plant}/${a.code}`;
}

export interface GrantDiff {
  addedGrants: string[];
  removedGrants: string[];
  addedAttachments: AttachmentRef[];
  removedAttachments: AttachmentRef[];
}

export function diffGrantState(before: GrantState, after: GrantState): GrantDiff {
  const beforeGrants = new Set(before.grants);
  const afterGrants = new Set(after.grants);
  const beforeKeys = new Set(before.attachments.map(attachmentKey));
  const afterKeys = new Set(after.attachments.map(attachmentKey));
  return {
    addedGrants: [...afterGrants].filter((g) => !beforeGrants.has(g)).sort(),
    removedGrants: [...beforeGrants].filter((g) => !afterGrants.has(g)).sort(),
    addedAttachments: after.attachments.filter((a) => !beforeKeys.has(attachmentKey(a))),
    removedAttachments: before.attachments.filter((a) => !afterKeys.has(attachmentKey(a))),
  };
}

/** What an editor may change: grants and attachment kinds, and where plant scope applies. */
export interface EditScope {
  grants: Grant[];
  attachments: AttachmentKind[];
  /** Grants / kinds the editor may change only for users and plants of its own plants. */
  plantScopedGrants: Grant[];
  plantScopedAttachments: AttachmentKind[];
  /** The editor's plants, for the scoped ones. */
  plants: string[];
}

export function editScopeOf(editor: GrantEditor): EditScope {
  const free = { grants: new Set<Grant>(), attachments: new Set<AttachmentKind>() };
  const scoped = { grants: new Set<Grant>(), attachments: new Set<AttachmentKind>() };
  for (const grant of editor.grants) {
    if (!isGrant(grant)) continue;
    const entry = GRANTABLE[grant];
    if (!entry) continue;
    const into = PLANT_SCOPED_GRANTERS.includes(grant) ? scoped : free;
    entry.grants.forEach((g) => into.grants.add(g));
    entry.attachments.forEach((k) => into.attachments.add(k));
  }
  // Something an unscoped grant allows is not limited by a scoped one.
  const plantScopedGrants = [...scoped.grants].filter((g) => !free.grants.has(g));
  const plantScopedAttachments = [...scoped.attachments].filter((k) => !free.attachments.has(k));
  return {
    grants: [...new Set([...free.grants, ...scoped.grants])],
    attachments: [...new Set([...free.attachments, ...scoped.attachments])],
    plantScopedGrants,
    plantScopedAttachments,
    plants: [...editor.plants],
  };
}

/**
 * Attachments that go with the grants this edit removes: the user carried them (their grants
 * could hold them) and the wanted grants no longer can (a mechanic made a supervisor keeps no
 * work centre). They leave with the grant, in the same change: an editor allowed to remove the
 * grant need not be allowed to edit that kind of attachment (a stock admin changes a mechanic's
 * role; their work centres are a manager's to give).
 */
export function attachmentsLeavingWith(before: GrantState, after: GrantState): AttachmentRef[] {
  // From what the user held, whether or not the wanted state still lists them.
  return before.attachments.filter((a) => mayHoldAttachment(before.grants, a.kind) && !mayHoldAttachment(after.grants, a.kind));
}

/** The wanted state without what leaves with the removed grants (attachmentsLeavingWith). */
export function withoutLeaving(before: GrantState, after: GrantState): GrantState {
  const leaving = new Set(attachmentsLeavingWith(before, after).map(attachmentKey));
  return { grants: after.grants, attachments: after.attachments.filter((a) => !leaving.has(attachmentKey(a))) };
}

/**
 * A refusal of one item of a change: `message` is the English; `code` and `params` word it in the
 * reader's language (serverErrors.<code>; the texts name a grant or a kind through
 * users.grants.<grant> / users.kinds.<kind>, as the dialog does).
 */
export interface GrantRefusal {
  message: string;
  code: string;
  params: Record<string, string>;
}

/** The plant and code of an attachment as the dialog shows them (FI01, FI01/FI01M001, 0050010001). */
const attachmentWords = (a: AttachmentRef) => (a.kind === 'plant' || a.plant === '' ? a.code : `${a.plant}/${a.code}`);
/** An attachment as a coded refusal names it: its kind (worded users.kinds.<kind>) and plant/code. */
export const attachmentParams = (a: AttachmentRef) => ({ kind: a.kind, attachment: attachmentWords(a) });
/** The editor's plants as the refusals name them; a dash (any language) for none. */
const plantList = (scope: EditScope) => ({ english: scope.plants.join(', ') || 'none', params: scope.plants.join(', ') || '–' });

/**
 * Whether every plant of the edited user, before the change (`targetPlants`) and after it, is the
 * editor's: a grant the editor gives under plant scope (a stock admin's mechanic, supervisor) is
 * given or taken only then, since a role acts in every plant of its holder. A user without plants
 * is nobody's plant user. The dialog locks those grants otherwise, by this same rule.
 */
export function userPlantsInScope(scope: EditScope, targetPlants: readonly string[], after: GrantState): boolean {
  const allPlants = [...new Set([...targetPlants, ...after.attachments.filter((a) => a.kind === 'plant').map((a) => a.code)])];
  return allPlants.length > 0 && allPlants.every((plant) => scope.plants.includes(plant));
}

const writesPriorities = (grants: readonly string[]) => grants.some((g) => g === 'PM_write' || g === 'PM_upload_add' || g === 'PM_upload_disable');

/**
 * Whether the editor may change the ship-to-party numbers (kind ship_to_party) of a user whose
 * grants go from `before` to `after`: they are what PM write and the uploads act on too, so one
 * who may give PM read only (UM_PM_grant_read) does not change them for a user who writes or
 * uploads priorities, before or after the change. The dialog offers no adder then.
 */
export function mayChangeShipToParties(scope: EditScope, before: readonly string[], after: readonly string[]): boolean {
  return (scope.grants as string[]).includes('PM_write') || !(writesPriorities(before) || writesPriorities(after));
}

/**
 * Why the editor may not make this change (§6), one refusal per refused item; empty when it may.
 * `targetPlants`: the edited user's plants before the edit (stock_admin edits users of its plants).
 * What leaves with a removed grant (attachmentsLeavingWith) is the grant's to remove, checked as
 * the grant is (and under plant scope, within the editor's plants).
 */
export function grantRefusals(editor: GrantEditor, before: GrantState, after: GrantState, targetPlants: readonly string[]): GrantRefusal[] {
  const scope = editScopeOf(editor);
  const plants = plantList(scope);
  const diff = diffGrantState(before, after);
  const leaving = attachmentsLeavingWith(before, after);
  const leavingKeys = new Set(leaving.map(attachmentKey));
  const refusals: GrantRefusal[] = [];
  const outsidePlants = (a: AttachmentRef): GrantRefusal => ({
    message: `${describeAttachment(a)} is outside your plants (${plants.english})`,
    code: 'attachmentOutsidePlants',
    params: { ...attachmentParams(a), plants: plants.params },
  });
  // What leaves with a grant removed under plant scope (a stock admin's) must be of the editor's
  // plants: taking a role away does not reach into plants the editor does not work in.
  const scopedRemoval = diff.removedGrants.some((grant) => (scope.plantScopedGrants as string[]).includes(grant));
  if (scopedRemoval) {
    for (const attachment of leaving) {
      const plant = attachment.kind === 'plant' ? attachment.code : attachment.plant;
      if (PER_PLANT_KINDS.includes(attachment.kind) && !scope.plants.includes(plant)) refusals.push(outsidePlants(attachment));
    }
  }
  // A role is global: given or taken under plant scope, it acts in every plant of the user, so
  // every one of them (before and after the change) must be the editor's.
  const targetInScope = userPlantsInScope(scope, targetPlants, after);

  for (const [grant, verb] of [...diff.addedGrants.map((g) => [g, 'grant'] as const), ...diff.removedGrants.map((g) => [g, 'remove'] as const)]) {
    if (!(scope.grants as string[]).includes(grant)) {
      refusals.push({ message: `you may not ${verb} ${grant}`, code: verb === 'grant' ? 'grantGiveNotAllowed' : 'grantRemoveNotAllowed', params: { grant } });
    } else if ((scope.plantScopedGrants as string[]).includes(grant) && !targetInScope) {
      refusals.push({
        message: `you may ${verb} ${grant} only for users all of whose plants are yours (${plants.english})`,
        code: 'grantPlantsNotYours',
        params: { grant, plants: plants.params },
      });
    }
  }
  const shipToPartyChanged = [...diff.addedAttachments, ...diff.removedAttachments].some((a) => a.kind === 'ship_to_party' && !leavingKeys.has(attachmentKey(a)));
  if (shipToPartyChanged && !mayChangeShipToParties(scope, before.grants, after.grants)) {
    refusals.push({
      message: 'you may not change the ship-to-party numbers of a user who writes or uploads priorities (you give PM read only)',
      code: 'shipToPartyOfPriorityWriter',
      params: {},
    });
  }
  const attachments = [
    ...diff.addedAttachments.map((a) => [a, 'add'] as const),
    ...diff.removedAttachments.filter((a) => !leavingKeys.has(attachmentKey(a))).map((a) => [a, 'remove'] as const),
  ];
  for (const [attachment, verb] of attachments) {
    if (!scope.attachments.includes(attachment.kind)) {
      refusals.push({
        message: `you may not ${verb} ${describeAttachment(attachment)}`,
        code: verb === 'add' ? 'attachmentAddNotAllowed' : 'attachmentRemoveNotAllowed',
        params: attachmentParams(attachment),
      });
    } else if (scope.plantScopedAttachments.includes(attachment.kind) && !scope.plants.includes(attachment.plant)) {
      refusals.push(outsidePlants(attachment));
    }
  }
  return refusals;
}

/** grantRefusals in English, one reason per refused item. */
export function refusedChanges(editor: GrantEditor, before: GrantState, after: GrantState, targetPlants: readonly string[]): string[] {
  return grantRefusals(editor, before, after, targetPlants).map((refusal) => refusal.message);
}

/** Attachments the edited user's grants may not carry after the edit (§6 attachments), one refusal each. */
export function attachmentHolderRefusals(before: GrantState, after: GrantState): GrantRefusal[] {
  const beforeKeys = new Set(before.attachments.map(attachmentKey));
  const refusals: GrantRefusal[] = [];
  for (const attachment of after.attachments) {
    if (mayHoldAttachment(after.grants, attachment.kind)) continue;
    const isNew = !beforeKeys.has(attachmentKey(attachment));
    // Already carried without a holder before: not this edit's doing.
    if (!isNew && !mayHoldAttachment(before.grants, attachment.kind)) continue;
    const holders = ATTACHMENT_HOLDERS[attachment.kind];
    const who = holders === 'any' ? 'any user' : holders.join(', ');
    refusals.push({
      message: `${describeAttachment(attachment)} can be attached only to ${who}`,
      code: 'attachmentNeedsHolder',
      params: { ...attachmentParams(attachment), holders: holders === 'any' ? '' : holders.join(', ') },
    });
  }
  return refusals;
}

/** attachmentHolderRefusals in English. */
export function invalidAttachments(before: GrantState, after: GrantState): string[] {
  return attachmentHolderRefusals(before, after).map((refusal) => refusal.message);
}

/** Per-plant kinds need a plant, the others none; the plant attachment's code is its plant. */
export function attachmentShapeProblem(a: AttachmentRef): string | null {
  const perPlant = PER_PLANT_KINDS.includes(a.kind);
  if (perPlant && a.plant === '') return `${describeAttachment(a)} needs a plant`;
  if (!perPlant && a.plant !== '') return `${a.kind.replaceAll('_', ' ')} ${a.code} is not per plant: send plant ''`;
  if (a.kind === 'plant' && a.plant !== a.code) return `plant ${a.code}: plant and code must be the same`;
  return null;
}
