/**
 * What a company database needs before anyone can use it, without the demo seed (SEED_ON_START
 * false): the grants catalogue, the company's plants and their organisation, and the first super
 * managers. Run at every start,
 * after the migrations (and after the seed, when it runs), in one transaction; every step is an
 * upsert, so any replica may run it at any start and the second run changes nothing.
 *
 * - The grants catalogue (§6) is the code's (src/domain/permissions.ts): written as it is, so a
 *   grant added by a release is there before its first use (a permission change naming a grant
 *   missing from the table was a 500 on an unseeded database).
 * - The company's organisation comes from the CSV files of BOOTSTRAP_DIR (comma or semicolon, a
 *   header row, each optional): plants.csv `code;name;country;city;timezone`, planner_groups.csv
 *   `plant;code;name`, work_centers.csv `plant;code;name;planner_group`, storage_locations.csv
 *   `plant;code;name;work_center` (a van names its mechanic's work center; a warehouse none);
 *   for the priority manager, ship_to_parties.csv `code;name;plant;country;address` (plant may be
 *   empty) and access_points.csv `id;name;address;postal_code;city;country`.
 *   Rows are added or updated, never removed (counts, stock, people and priorities point at
 *   them); ERP STOCK files name storage locations that must exist.
 * - BOOTSTRAP_SUPER_MANAGERS names the first super managers by e-mail address: one that is not a
 *   user yet is created approved with the super_manager role. One that is a user already is
 *   changed only while nobody holds super_manager (a database locked out): what super managers
 *   decided about them stands. They sign in with the company's identity provider as anyone does;
 *   the address binds them on first sign-in. Each change is in the audit log, by "bootstrap".
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { GRANTS, GRANT_DESCRIPTIONS, ROLES } from '../../src/domain/permissions';
import { stepCsvLines } from '../csv/read-lines';
import { canonicalTimeZone } from '../ingestion/schedule';
import type { Db } from './client';
import { accessPoints, approvalRequests, auditLog, grants, plannerGroups, plants, shipToParties, storageLocations, userGrants, users, workCenters } from './schema';

export interface BootstrapOptions {
  /** E-mail addresses of the first super managers (BOOTSTRAP_SUPER_MANAGERS). */
  superManagers: readonly string[];
  /** A folder of reference CSV files (BOOTSTRAP_DIR): plants.csv, planner_groups.csv, work_centers.csv, storage_locations.csv, ship_to_parties.csv, access_points.csv, each optional. */
  dir?: string | undefined;
}

export interface BootstrapReport {
  grants: number;
  /** Rows read per reference file (upserted). */
  rows: Record<string, number>;
  /** Addresses made super manager by this run (none when all already were). */
  superManagersAdded: string[];
}

/** The grants catalogue of §6 as table rows, from the code: the seed and every start write these. */
export const grantCatalogue = () => GRANTS.map((id) => ({ id, kind: (ROLES as readonly string[]).includes(id) ? 'role' : 'permission', ...GRANT_DESCRIPTIONS[id] }));

/** The audit log's actor for what configuration did, not a person. */
export const BOOTSTRAP_ACTOR = 'bootstrap';

type Cell = (value: string) => string | null;
const required =
  (max: number): Cell =>
  (value) =>
    value.length >= 1 && value.length <= max ? value : null;
const CODE: Cell = (value) => (/^[A-Z0-9_-]{1,20}$/.test(value.toUpperCase()) ? value.toUpperCase() : null);
const COUNTRY: Cell = (value) => (/^[A-Z]{2}$/.test(value.toUpperCase()) ? value.toUpperCase() : null);
const ZONE: Cell = canonicalTimeZone;

interface Column {
  name: string;
  cell: Cell;
  /** Said when the cell is refused. */
  rule: string;
  optional?: true;
}
const code = (name: string): Column => ({ name, cell: CODE, rule: 'must be 1 to 20 letters, digits, _ or -' });
const text = (name: string): Column => ({ name, cell: required(200), rule: 'must be 1 to 200 characters' });
const optionalCode = (name: string): Column => ({ name, cell: (value) => (value === '' ? '' : CODE(value)), rule: 'must be empty or 1 to 20 letters, digits, _ or -', optional: true });

/** The reference files, in the order they are written (plants first: the others name them). */
export const REFERENCE_FILES = [
  {
    file: 'plants.csv',
    table: plants,
    key: ['code'],
    columns: [
      code('code'),
      text('name'),
      { name: 'country', cell: COUNTRY, rule: 'must be a two-letter ISO code' },
      text('city'),
      { name: 'timezone', cell: ZONE, rule: 'must be an IANA zone such as Europe/Helsinki' },
    ],
  },
  { file: 'planner_groups.csv', table: plannerGroups, key: ['plant', 'code'], columns: [code('plant'), code('code'), text('name')] },
  { file: 'work_centers.csv', table: workCenters, key: ['plant', 'code'], columns: [code('plant'), code('code'), text('name'), optionalCode('planner_group')] },
  { file: 'storage_locations.csv', table: storageLocations, key: ['plant', 'code'], columns: [code('plant'), code('code'), text('name'), optionalCode('work_center')] },
  // The priority manager's (§2): the ship-to-party numbers and the pickup access points that
  // priority files and ship-to-party uploads name. Their codes and ids keep their case (the files
  // that name them are matched exactly).
  {
    file: 'ship_to_parties.csv',
    table: shipToParties,
    key: ['code'],
    columns: [
      { name: 'code', cell: (value) => (/^[A-Za-z0-9_-]{1,20}$/.test(value) ? value : null), rule: 'must be 1 to 20 letters, digits, _ or -' },
      text('name'),
      optionalCode('plant'),
      { name: 'country', cell: COUNTRY, rule: 'must be a two-letter ISO code' },
      text('address'),
    ],
  },
  {
    file: 'access_points.csv',
    table: accessPoints,
    key: ['id'],
    columns: [
      { name: 'id', cell: (value) => (/^[A-Za-z0-9_.:-]{1,40}$/.test(value) ? value : null), rule: 'must be 1 to 40 letters, digits, _ . : or -' },
      text('name'),
      text('address'),
      { name: 'postal_code', cell: required(20), rule: 'must be 1 to 20 characters' },
      text('city'),
      { name: 'country', cell: COUNTRY, rule: 'must be a two-letter ISO code' },
    ],
  },
] as const satisfies ReadonlyArray<{ file: string; table: PgTable; key: readonly string[]; columns: readonly Column[] }>;

export type ReferenceFile = (typeof REFERENCE_FILES)[number];
export type ReferenceRow = Record<string, string | null>;

/**
 * The rows of one reference file; every problem with its line, all at once (the server does not
 * start on a file it would only half apply). `plantsKnown`: plant codes a row may name (those of
 * plants.csv and of the database); a plant outside them is refused by its line. An optional
 * column the header does not name is not in the rows at all: what the database holds for it stays
 * (a file of three columns must not unlink every van from its work center). A column the file
 * names that is not one of the file's is refused: a misspelt one would otherwise be ignored.
 */
export function parseReference(spec: ReferenceFile, text: string, where: string = spec.file, plantsKnown?: ReadonlySet<string>): ReferenceRow[] {
  // Row by row with the line each starts on (blank rows, quoted cells spanning lines and any line
  // ending counted as an editor shows them), as the ERP files and priority uploads are read.
  const state: { header: string[] | null } = { header: null };
  const records: Array<{ cells: string[]; line: number }> = [];
  // A quote never closed takes the rest of the file into one cell: said, not loaded.
  const quoteProblems: string[] = [];
  stepCsvLines(text, { delimiters: [';', ','], previewRows: 10 }, (cells, line, _parser, errors) => {
    for (const error of errors) quoteProblems.push(`line ${line}: ${error.message}`);
    if (state.header === null) state.header = cells.map((cell) => cell.trim().toLowerCase());
    else records.push({ cells, line });
  });
  const named: string[] = state.header ?? [];
  const all: readonly Column[] = spec.columns;
  const missing = all.filter((column) => !column.optional && !named.includes(column.name)).map((column) => column.name);
  const unnamed = named.includes('');
  const unknown = named.filter((name) => name !== '' && !all.some((column) => column.name === name));
  const twice = named.filter((name, index) => name !== '' && named.indexOf(name) !== index);
  if (missing.length > 0 || unknown.length > 0 || twice.length > 0 || unnamed) {
    const said = [
      ...(missing.length ? [`missing: ${missing.join(', ')}`] : []),
      ...(unknown.length ? [`unknown: ${unknown.join(', ')}`] : []),
      ...(twice.length ? [`named twice: ${[...new Set(twice)].join(', ')}`] : []),
      ...(unnamed ? ['a column without a name: a delimiter too many?'] : []),
    ];
    throw new Error(`${where}: the header must name ${all.map((column) => column.name).join(';')} (${said.join('; ')})`);
  }
  const columns = all.filter((column) => named.includes(column.name));
  const problems: string[] = [];
  const seen = new Map<string, number>();
  const rows: ReferenceRow[] = [];
  for (const { cells, line } of records) {
    if (cells.length !== named.length) {
      problems.push(`line ${line}: ${named.length} cells expected as in the header, found ${cells.length}`);
      continue;
    }
    const before = problems.length;
    const row: ReferenceRow = {};
    for (const column of columns) {
      const raw = cells[named.indexOf(column.name)]!.trim();
      // No name, address or code of these files spans lines: one that does is a quote gone wrong.
      if (raw.includes('\n')) {
        problems.push(`line ${line}: ${column.name} spans lines (a quote not closed?)`);
        continue;
      }
      const value = column.cell(raw);
      if (value === null) problems.push(`line ${line}: ${column.name} ${column.rule}, got "${raw}"`);
      row[column.name] = value === '' && column.optional ? null : value;
    }
    if (plantsKnown && row.plant && !plantsKnown.has(row.plant)) problems.push(`line ${line}: plant ${row.plant} is neither in plants.csv nor in the database`);
    const key = spec.key.map((name) => row[name]).join('/');
    const first = seen.get(key);
    if (first !== undefined) problems.push(`line ${line}: ${key} is already on line ${first}`);
    seen.set(key, first ?? line);
    if (problems.length === before) rows.push(row);
  }
  problems.push(...quoteProblems);
  if (problems.length > 0) throw new Error(`${where}: ${problems.join('; ')}`);
  return rows;
}

/** The files of `dir` there are, read and checked: nothing is written unless all are right. */
async function readReferences(db: Db, dir: string): Promise<Array<{ spec: ReferenceFile; rows: ReferenceRow[] }>> {
  const known = new Set((await db.select({ code: plants.code }).from(plants)).map((plant) => plant.code));
  const read: Array<{ spec: ReferenceFile; rows: ReferenceRow[] }> = [];
  const problems: string[] = [];
  // A mistyped folder or an unmounted volume is not a start with nothing loaded.
  const present = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`BOOTSTRAP_DIR: cannot read the folder ${dir} (${error.code ?? error.message})`);
  });
  if (!REFERENCE_FILES.some((spec) => present.includes(spec.file))) {
    throw new Error(`BOOTSTRAP_DIR: ${dir} holds none of ${REFERENCE_FILES.map((spec) => spec.file).join(', ')} (names are lower case)`);
  }
  for (const spec of REFERENCE_FILES) {
    const path = join(dir, spec.file);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    try {
      const rows = parseReference(spec, text, path, spec.table === plants ? undefined : known);
      if (spec.table === plants) for (const row of rows) known.add(row.code!);
      read.push({ spec, rows });
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (problems.length > 0) throw new Error(`BOOTSTRAP_DIR: ${problems.join(' | ')}`);
  return read;
}

const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

export async function bootstrapDatabase(db: Db, options: BootstrapOptions): Promise<BootstrapReport> {
  // Read and checked before the transaction: a bad file stops the start with nothing written.
  const references = options.dir ? await readReferences(db, options.dir) : [];
  // Sorted: two replicas starting at once take the users' locks in one order.
  const managers = [...new Set(options.superManagers.map((email) => email.trim().toLowerCase()).filter(Boolean))].sort();
  return db.transaction(async (tx) => {
    // One start at a time bootstraps (replicas starting together wait here, then find it done).
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('partstrack.bootstrap'))`);
    await tx
      .insert(grants)
      .values(grantCatalogue())
      .onConflictDoUpdate({ target: grants.id, set: { kind: sql`excluded.kind`, label: sql`excluded.label`, description: sql`excluded.description` } });
    const rows: Record<string, number> = {};
    for (const { spec, rows: read } of references) {
      rows[spec.file] = read.length;
      if (read.length === 0) continue;
      const table = spec.table as typeof plants;
      const keys = new Set<string>(spec.key);
      const values = read.map((row) => Object.fromEntries(Object.entries(row).map(([name, value]) => [camel(name), value])));
      // Only the columns the file names are written over (rows of one file have the same keys).
      const set = Object.fromEntries(Object.keys(read[0]!).filter((name) => !keys.has(name)).map((name) => [camel(name), sql.raw(`excluded.${name}`)]));
      const target = spec.key.map((name) => (table as unknown as Record<string, AnyPgColumn>)[camel(name)]!);
      // In pieces: one statement takes at most 65,535 parameters.
      for (let at = 0; at < values.length; at += 2_000) {
        await tx.insert(table).values(values.slice(at, at + 2_000) as never).onConflictDoUpdate({ target, set });
      }
    }
    const superManagersAdded: string[] = [];
    // A listed address that is not a user yet is made one. One that is a user is changed only
    // while nobody holds super_manager (locked out): otherwise what super managers decided about
    // them (demoted, rejected) stands, and a start does not undo it.
    const [anySuper] = await tx.select({ userId: userGrants.userId }).from(userGrants).where(eq(userGrants.grantId, 'super_manager')).limit(1);
    for (const email of managers) {
      const [existing] = await tx.select({ id: users.id, approvalStatus: users.approvalStatus }).from(users).where(eq(users.email, email)).for('update');
      if (existing && anySuper) continue;
      const [user] = existing
        ? await tx.update(users).set({ approvalStatus: 'Approved', updatedAt: new Date() }).where(eq(users.id, existing.id)).returning({ id: users.id })
        : await tx.insert(users).values({ email, displayName: email.split('@')[0]!, approvalStatus: 'Approved', firstLogin: true }).returning({ id: users.id });
      // A request of theirs still open is settled with it: it would wait in the approvals list for nothing.
      await tx
        .update(approvalRequests)
        .set({ approvalStatus: 'Approved', decidedAt: new Date() })
        .where(and(eq(approvalRequests.requestingUserId, user!.id), eq(approvalRequests.approvalStatus, 'Pending')));
      await tx.insert(userGrants).values({ userId: user!.id, grantId: 'super_manager' }).onConflictDoNothing();
      superManagersAdded.push(email);
      await tx.insert(auditLog).values({
        actorUserId: null,
        actorEmail: BOOTSTRAP_ACTOR,
        action: 'user.bootstrapSuperManager',
        targetType: 'user',
        targetId: user!.id,
        before: existing ? { email, approvalStatus: existing.approvalStatus } : null,
        after: { email, grant: 'super_manager', approvalStatus: 'Approved' },
      });
    }
    return { grants: GRANTS.length, rows, superManagersAdded };
  });
}
