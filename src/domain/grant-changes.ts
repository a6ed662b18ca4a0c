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
 * Why the editor may not make this change (§6), one reason per refused item; empty when it may.
 * `targetPlants`: the edited user's plants before the edit (stock_admin edits users of its plants).
 * What leaves with a removed grant (attachmentsLeavingWith) is the grant's to remove, checked as
 * the grant is (and under plant scope, within the editor's plants).
 */
export function refusedChanges(
  editor: GrantEditor,
  before: GrantState,
  after: GrantState,
  targetPlants: readonly string[],
): string[] {
  const scope = editScopeOf(editor);
  const diff = diffGrantState(before, after);
  const leaving = attachmentsLeavingWith(before, after);
  const leavingKeys = new Set(leaving.map(attachmentKey));
  const reasons: string[] = [];
  // What leaves with a grant removed under plant scope (a stock admin's) must be of the editor's
  // plants: taking a role away does not reach into plants the editor does not work in.
  const scopedRemoval = diff.removedGrants.some((grant) => (scope.plantScopedGrants as string[]).includes(grant));
  if (scopedRemoval) {
    for (const attachment of leaving) {
      const plant = attachment.kind === 'plant' ? attachment.code : attachment.plant;
      if (PER_PLANT_KINDS.includes(attachment.kind) && !scope.plants.includes(plant)) {
        reasons.push(`${describeAttachment(attachment)} is outside your plants (${scope.plants.join(', ') || 'none'})`);
      }
    }
  }
  // A role is global: given or taken under plant scope, it acts in every plant of the user, so
  // every one of them (before and after the change) must be the editor's.
  const allPlants = [...new Set([...targetPlants, ...after.attachments.filter((a) => a.kind === 'plant').map((a) => a.code)])];
  const targetInScope = allPlants.length > 0 && allPlants.every((plant) => scope.plants.includes(plant));

  for (const [grant, verb] of [...diff.addedGrants.map((g) => [g, 'grant'] as const), ...diff.removedGrants.map((g) => [g, 'remove'] as const)]) {
    if (!(scope.grants as string[]).includes(grant)) reasons.push(`you may not ${verb} ${grant}`);
    else if ((scope.plantScopedGrants as string[]).includes(grant) && !targetInScope) {
      reasons.push(`you may ${verb} ${grant} only for users all of whose plants are yours (${scope.plants.join(', ') || 'none'})`);
    }
  }
  // Ship-to-party numbers are what PM write and the uploads act on too: one who may give PM read
  // only (UM_PM_grant_read) does not change them for a user who writes or uploads priorities.
  const writesPriorities = (grants: readonly string[]) => grants.some((g) => g === 'PM_write' || g === 'PM_upload_add' || g === 'PM_upload_disable');
  const shipToPartyChanged = [...diff.addedAttachments, ...diff.removedAttachments].some((a) => a.kind === 'ship_to_party' && !leavingKeys.has(attachmentKey(a)));
  if (shipToPartyChanged && !(scope.grants as string[]).includes('PM_write') && (writesPriorities(before.grants) || writesPriorities(after.grants))) {
    reasons.push('you may not change the ship-to-party numbers of a user who writes or uploads priorities (you give PM read only)');
  }
  const attachments = [
    ...diff.addedAttachments.map((a) => [a, 'add'] as const),
    ...diff.removedAttachments.filter((a) => !leavingKeys.has(attachmentKey(a))).map((a) => [a, 'remove'] as const),
  ];
  for (const [attachment, verb] of attachments) {
    if (!scope.attachments.includes(attachment.kind)) {
      reasons.push(`you may not ${verb} ${describeAttachment(attachment)}`);
    } else if (scope.plantScopedAttachments.includes(attachment.kind) && !scope.plants.includes(attachment.plant)) {
      reasons.push(`${describeAttachment(attachment)} is outside your plants (${scope.plants.join(', ') || 'none'})`);
    }
  }
  return reasons;
}

/** Attachments the edited user's grants may not carry after the edit (§6 attachments). */
export function invalidAttachments(before: GrantState, after: GrantState): string[] {
  const beforeKeys = new Set(before.attachments.map(attachmentKey));
  const reasons: string[] = [];
  for (const attachment of after.attachments) {
    if (mayHoldAttachment(after.grants, attachment.kind)) continue;
    const isNew = !beforeKeys.has(attachmentKey(attachment));
    // Already carried without a holder before: not this edit's doing.
    if (!isNew && !mayHoldAttachment(before.grants, attachment.kind)) continue;
    const holders = ATTACHMENT_HOLDERS[attachment.kind];
    const who = holders === 'any' ? 'any user' : holders.join(', ');
    reasons.push(`${describeAttachment(attachment)} can be attached only to ${who}`);
  }
  return reasons;
}

/** Per-plant kinds need a plant, the others none; the plant attachment's code is its plant. */
export function attachmentShapeProblem(a: AttachmentRef): string | null {
  const perPlant = PER_PLANT_KINDS.includes(a.kind);
  if (perPlant && a.plant === '') return `${describeAttachment(a)} needs a plant`;
  if (!perPlant && a.plant !== '') return `${a.kind.replaceAll('_', ' ')} ${a.code} is not per plant: send plant ''`;
  if (a.kind === 'plant' && a.plant !== a.code) return `plant ${a.code}: plant and code must be the same`;
  return null;
}
