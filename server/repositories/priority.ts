/**
 * Access-point priorities per ship-to-party (§3, §6). A user sees and changes the ship-to-party
 * numbers they hold (attachments ship_to_party and managed_ship_to_party); super managers all of
 * them. Anything outside that scope reads as "unknown or not yours", never as someone else's data.
 */
import { and, asc, eq, exists, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { accessPointPriorities, accessPoints, shipToParties, userAttachments } from '../db/schema';
import { can, isSuperManager, writesEverywhere } from '../../src/domain/permissions';
import type { PriorityEntry } from '../../src/contract/priority';
import type { CurrentUser } from './users';
import { likePattern } from './stock-counts';

type Executor = Db | Tx;

export const HELD_SHIP_TO_PARTY_KINDS = ['ship_to_party', 'managed_ship_to_party'] as const;

/** The ship-to-party numbers the user holds, from the attachments loaded with the request. */
export function heldShipToPartyCodes(user: CurrentUser): string[] {
  const held = user.attachments.filter((a) => (HELD_SHIP_TO_PARTY_KINDS as readonly string[]).includes(a.kind)).map((a) => a.code);
  return [...new Set(held)].sort();
}

/** The ship-to-party numbers the user reads: null for every one (super managers, read-only too); otherwise the codes the user holds. */
export function shipToPartyScope(user: CurrentUser): string[] | null {
  return isSuperManager(user.grants) ? null : heldShipToPartyCodes(user);
}

/**
 * The ship-to-party numbers whose priorities the user may change (edits, uploads): null for every
 * one (the super manager only); otherwise the codes the user holds. A read-only super manager who
 * also writes priorities writes only those it holds (decision 0063).
 */
export function shipToPartyWriteScope(user: CurrentUser): string[] | null {
  return writesEverywhere(user.grants) ? null : heldShipToPartyCodes(user);
}

function scopeCondition(user: CurrentUser): SQL | undefined | false {
  const codes = shipToPartyScope(user);
  if (codes === null) return undefined;
  return codes.length === 0 ? false : inArray(shipToParties.code, codes);
}

export async function listPriorities(
  db: Executor,
  user: CurrentUser,
  options: { query?: string; countries: string[]; maxResults: number },
): Promise<{ items: PriorityEntry[]; hasMore: boolean }> {
  const scope = scopeCondition(user);
  if (scope === false) return { items: [], hasMore: false };
  const search = options.query ? likePattern(options.query) : null;
  const linkedAccessPoint = (condition: SQL | undefined) =>
    exists(
      db
        .select({ one: sql`1` })
        .from(accessPointPriorities)
        .innerJoin(accessPoints, eq(accessPoints.id, accessPointPriorities.accessPointId))
        .where(and(eq(accessPointPriorities.shipToPartyCode, shipToParties.code), condition)),
    );
  const inCountries = options.countries.length > 0 ? inArray(accessPoints.country, options.countries) : undefined;
  const parties = await db
    .select()
    .from(shipToParties)
    .where(
      and(
        scope,
        search
          ? or(
              ilike(shipToParties.code, search),
              ilike(shipToParties.name, search),
              linkedAccessPoint(or(ilike(accessPoints.id, search), ilike(accessPoints.name, search), ilike(accessPoints.city, search))),
            )
          : undefined,
        inCountries ? linkedAccessPoint(inCountries) : undefined,
      ),
    )
    .orderBy(asc(shipToParties.code))
    // One more than asked: whether more match than are listed (has_more).
    .limit(options.maxResults + 1);
  const hasMore = parties.length > options.maxResults;
  parties.length = Math.min(parties.length, options.maxResults);
  if (parties.length === 0) return { items: [], hasMore };
  const infos = await db
    .select({ link: accessPointPriorities, point: accessPoints })
    .from(accessPointPriorities)
    .innerJoin(accessPoints, eq(accessPoints.id, accessPointPriorities.accessPointId))
    .where(and(inArray(accessPointPriorities.shipToPartyCode, parties.map((p) => p.code)), inCountries))
    // §3: the priority 1 access point first.
    .orderBy(asc(accessPointPriorities.shipToPartyCode), asc(accessPointPriorities.priority), asc(accessPoints.id));
  // Per entry, from the attachments read with this request: a number given a moment ago is
  // writable at once, without waiting for the app's next read of the profile.
  const writeScope = can(user.grants, 'priority.write') ? shipToPartyWriteScope(user) : [];
  const items = parties.map((party) => ({
    shipToPartyCode: party.code,
    shipToPartyName: party.name,
    shipToPartyAddress: party.address,
    uapinfos: infos
      .filter(({ link }) => link.shipToPartyCode === party.code)
      .map(({ link, point }) => ({
        accessPointId: point.id,
        name: point.name,
        address: point.address,
        postalCode: point.postalCode,
        city: point.city,
        country: point.country,
        priority: link.priority,
        isEnabled: link.isEnabled,
      })),
    writableByYou: writeScope === null || writeScope.includes(party.code),
  }));
  return { items, hasMore };
}

/** Countries of the access points linked to the user's ship-to-party numbers, by prefix. */
export async function countrySuggestions(db: Executor, user: CurrentUser, options: { query?: string; maxResults: number }): Promise<string[]> {
  const scope = scopeCondition(user);
  if (scope === false) return [];
  const prefix = options.query ? `${options.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const rows = await db
    .selectDistinct({ country: accessPoints.country })
    .from(accessPoints)
    .innerJoin(accessPointPriorities, eq(accessPointPriorities.accessPointId, accessPoints.id))
    .innerJoin(shipToParties, eq(shipToParties.code, accessPointPriorities.shipToPartyCode))
    .where(and(scope, prefix ? ilike(accessPoints.country, prefix) : undefined))
    .orderBy(asc(accessPoints.country))
    .limit(options.maxResults);
  return rows.map((row) => row.country);
}

export async function accessPointIds(db: Executor): Promise<string[]> {
  const rows = await db.select({ id: accessPoints.id }).from(accessPoints).orderBy(asc(accessPoints.id));
  return rows.map((row) => row.id);
}

/** The ship-to-party numbers the user sees: held ones that exist, or all for super managers. */
export async function visibleShipToPartyCodes(db: Executor, user: CurrentUser): Promise<string[]> {
  const scope = scopeCondition(user);
  if (scope === false) return [];
  const rows = await db.select({ code: shipToParties.code }).from(shipToParties).where(scope).orderBy(asc(shipToParties.code));
  return rows.map((row) => row.code);
}

/** Held numbers read inside a write, so the §5 limit counts what is really stored now. */
export async function storedHeldShipToPartyCodes(tx: Executor, userId: string): Promise<Set<string>> {
  const rows = await tx
    .select({ code: userAttachments.code })
    .from(userAttachments)
    .where(and(eq(userAttachments.userId, userId), inArray(userAttachments.kind, [...HELD_SHIP_TO_PARTY_KINDS])));
  return new Set(rows.map((row) => row.code));
}
