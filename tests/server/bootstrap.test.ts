/**
 * A company database without the demo seed (SEED_ON_START=false) is usable from its first start:
 * the grants catalogue is the code's, the plants and their organisation come from the CSV files of
 * BOOTSTRAP_DIR, and the addresses of BOOTSTRAP_SUPER_MANAGERS sign in as approved super managers
 * who can give others access. A second start (another replica, a restart) changes nothing but what
 * the files changed; a bad file stops the start with every problem and its line, and writes nothing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { parseReference, REFERENCE_FILES } from '../../server/db/bootstrap';
import { auditLog, grants, plants, shipToParties, storageLocations, workCenters } from '../../server/db/schema';
import { loadConfig } from '../../server/config';
import { startProduct } from '../../server/start';
import { GRANTS } from '../../src/domain/permissions';
import { bearer, createScratchDatabase } from './harness';

const [PLANTS, , WORK_CENTERS] = REFERENCE_FILES;

describe('the reference files of a bootstrap', () => {
  it('reads either delimiter, a byte-order mark and any header case, and normalises codes', () => {
    expect(parseReference(PLANTS, '\uFEFFCode,Name,Country,City,Timezone\nfi01,Helsinki depot,fi,Helsinki,Europe/Helsinki\n')).toEqual([
      { code: 'FI01', name: 'Helsinki depot', country: 'FI', city: 'Helsinki', timezone: 'Europe/Helsinki' },
    ]);
    // An optional column left out is not written at all (what the database holds stays); an empty cell is no value.
    expect(parseReference(WORK_CENTERS, 'plant;code;name\nFI01;M001;Route Pasila\n')).toEqual([{ plant: 'FI01', code: 'M001', name: 'Route Pasila' }]);
    expect(parseReference(WORK_CENTERS, 'plant;code;name;planner_group\nFI01;M001;Route Pasila;\n')).toEqual([{ plant: 'FI01', code: 'M001', name: 'Route Pasila', planner_group: null }]);
    expect(parseReference(PLANTS, 'code;name;country;city;timezone\nFI01;Helsinki;FI;Helsinki;europe/helsinki\n')[0]!.timezone).toBe('Europe/Helsinki');
  });

  it('names every problem with its line, all at once', () => {
    const text = ['code;name;country;city;timezone', 'FI01;Helsinki;FI;Helsinki;Europe/Helsinki', 'fi01;Again;FI;Espoo;Europe/Helsinki', 'DE 02;;Germany;Berlin;Mars/Olympus'].join('\n');
    expect(() => parseReference(PLANTS, text, 'plants.csv')).toThrow(
      'plants.csv: line 3: FI01 is already on line 2; line 4: code must be 1 to 20 letters, digits, _ or -, got "DE 02"; line 4: name must be 1 to 200 characters, got ""; line 4: country must be a two-letter ISO code, got "Germany"; line 4: timezone must be an IANA zone such as Europe/Helsinki, got "Mars/Olympus"',
    );
    expect(() => parseReference(PLANTS, 'code;name\nFI01;x', 'plants.csv')).toThrow('plants.csv: the header must name code;name;country;city;timezone (missing: country, city, timezone)');
    // A misspelt column is refused, not ignored.
    expect(() => parseReference(WORK_CENTERS, 'plant;code;name;plannergroup\nFI01;M1;Route;F10', 'work_centers.csv')).toThrow(
      'work_centers.csv: the header must name plant;code;name;planner_group (unknown: plannergroup)',
    );
    expect(() => parseReference(WORK_CENTERS, 'plant;code;name\nSE03;M1;Route', 'work_centers.csv', new Set(['FI01']))).toThrow(
      'work_centers.csv: line 2: plant SE03 is neither in plants.csv nor in the database',
    );
  });

  it('names the line a row starts on, past blank lines and cells that span lines, and rows with a cell too few or too many', () => {
    const text = [
      'plant;code;name',
      '',
      'FI01;M001;"Route Pasila,',
      'north side"',
      '   ',
      'FI01;M 2;Route Vallila',
      'FI01;M003',
      'FI01;M004;Route;extra',
      'FI01;M001;Again',
    ].join('\r\n');
    expect(() => parseReference(WORK_CENTERS, text, 'work_centers.csv')).toThrow(
      'work_centers.csv: line 3: name spans lines (a quote not closed?); line 6: code must be 1 to 20 letters, digits, _ or -, got "M 2"; line 7: 3 cells expected as in the header, found 2; ' +
        'line 8: 3 cells expected as in the header, found 4; line 9: FI01/M001 is already on line 3',
    );
    // A quote never closed is said, not loaded with the rest of the file as one name.
    expect(() => parseReference(WORK_CENTERS, 'plant;code;name\nFI01;M001;"Route Pasila\nFI01;M002;Route Vallila\n', 'work_centers.csv')).toThrow(
      'work_centers.csv: line 2: name spans lines (a quote not closed?); line 2: Quoted field unterminated',
    );
    expect(() => parseReference(WORK_CENTERS, 'plant;code;name;code\nFI01;M1;Route;M1', 'work_centers.csv')).toThrow('(named twice: code)');
    expect(() => parseReference(WORK_CENTERS, 'plant;code;name;\nFI01;M1;Route;', 'work_centers.csv')).toThrow('(a column without a name: a delimiter too many?)');
    // A spreadsheet's empty row (";;") is blank too; old Mac files end lines with a lone CR.
    expect(() => parseReference(WORK_CENTERS, 'plant;code;name\n;;\n ; ; \nFI01;M 2;x\n')).toThrow('line 4: code must');
    expect(() => parseReference(WORK_CENTERS, 'plant;code;name\r;;\rFI01;M1;x\rFI01;M 2;x\r')).toThrow('line 4: code must');
  });
});

const engines: Array<[string, string | undefined]> = [['PGlite', undefined], ...(process.env.DATABASE_URL ? [['PostgreSQL', process.env.DATABASE_URL] as [string, string]] : [])];

describe.each(engines)('a company database bootstrapped without the demo seed on %s', (_engine, adminUrl) => {
  const dir = mkdtempSync(join(tmpdir(), 'partstrack-bootstrap-'));
  const files = join(dir, 'company');
  const write = (name: string, text: string) => writeFileSync(join(files, name), text);
  let scratch: { url: string; drop: () => Promise<void> } | undefined;

  beforeAll(async () => {
    mkdirSync(files);
    if (adminUrl) scratch = await createScratchDatabase(adminUrl, 'pt_boot');
  }, 120_000);
  afterAll(async () => {
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (env: Record<string, string> = {}) =>
    startProduct(
      loadConfig({
        ...(scratch ? { DATABASE_URL: scratch.url } : {}),
        DATA_DIR: join(dir, 'data'),
        PUBLIC_DIR: './no-such-dir',
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        SEED_ON_START: 'false',
        INGESTION_WORKER: 'false',
        AUTH_LOCAL_ENABLED: 'true',
        BOOTSTRAP_SUPER_MANAGERS: 'Boss@Example.com',
        BOOTSTRAP_DIR: files,
        ...env,
      }),
    );

  it('lets its first super manager in, with the plants of the file, and give a colleague access', async () => {
    write('plants.csv', 'code;name;country;city;timezone\nFI01;Helsinki depot;FI;Helsinki;Europe/Helsinki\nDE02;Berlin depot;DE;Berlin;Europe/Berlin\n');
    write('planner_groups.csv', 'plant;code;name\nFI01;F10;Helsinki service\n');
    write('work_centers.csv', 'plant;code;name;planner_group\nFI01;FI01M001;Route Pasila;F10\n');
    write('storage_locations.csv', 'plant;code;name;work_center\nFI01;0001;Main warehouse;\nFI01;V001;Van 1;FI01M001\n');
    write('ship_to_parties.csv', 'code;name;plant;country;address\n0050010001;Service depot Pasila;FI01;fi;"Ratapihantie 11, 00520 Helsinki"\n0050099999;Head office;;FI;"Keilaranta 1, 02150 Espoo"\n');
    write('access_points.csv', 'id,name,address,postal_code,city,country\nfi-AP-pasila.6,Parcel locker Pasila station,Ratapihantie 6,00520,Helsinki,FI\n');
    const product = await start();
    try {
      const tokenOf = async (email: string) => (await product.app.inject({ method: 'POST', url: '/auth/local/token', payload: { email } })).json().idToken as string;
      const boss = bearer(await tokenOf('boss@example.com'));
      const me = await product.app.inject({ method: 'GET', url: '/user_api/v1/user/profile', headers: boss });
      expect(me.statusCode, me.body).toBe(200);
      expect(me.json().permissions).toContain('super_manager');

      // A colleague signs in (a request waits), and the super manager gives them the mechanic role at a plant of the file.
      const colleague = bearer(await tokenOf('colleague@example.com'));
      await product.app.inject({ method: 'GET', url: '/user_api/v1/user/profile', headers: colleague });
      const listed = await product.app.inject({ method: 'GET', url: '/user_api/v1/users?page=1&maxResults=50', headers: boss });
      expect(listed.statusCode, listed.body).toBe(200);
      const uid = (listed.json().items as Array<{ uid: string; email: string }>).find((user) => user.email === 'colleague@example.com')!.uid;
      const given = await product.app.inject({
        method: 'PUT',
        url: `/user_api/v1/users/${uid}/permissions`,
        headers: boss,
        payload: { grants: ['mechanic'], attachments: [{ kind: 'plant', plant: 'FI01', code: 'FI01' }] },
      });
      expect(given.statusCode, given.body).toBe(200);

      const db = product.database.db;
      expect((await db.select({ id: grants.id }).from(grants)).map((row) => row.id).sort()).toEqual([...GRANTS].sort());
      expect(await db.select().from(plants).orderBy(asc(plants.code))).toEqual([
        { code: 'DE02', name: 'Berlin depot', country: 'DE', city: 'Berlin', timezone: 'Europe/Berlin' },
        { code: 'FI01', name: 'Helsinki depot', country: 'FI', city: 'Helsinki', timezone: 'Europe/Helsinki' },
      ]);
      expect(await db.select().from(workCenters)).toEqual([{ plant: 'FI01', code: 'FI01M001', name: 'Route Pasila', plannerGroup: 'F10' }]);
      expect(await db.select().from(storageLocations).orderBy(asc(storageLocations.code))).toEqual([
        { plant: 'FI01', code: '0001', name: 'Main warehouse', workCenter: null },
        { plant: 'FI01', code: 'V001', name: 'Van 1', workCenter: 'FI01M001' },
      ]);
      // What the plant's planners choose from when they plan a count: the work centers of the file.
      const centers = await product.app.inject({ method: 'GET', url: '/api/v2/relationship/work_center?plant=FI01', headers: boss });
      expect(centers.statusCode, centers.body).toBe(200);
      expect(centers.body).toContain('FI01M001');
      // The priority manager works on the ship-to-parties and access points of the files.
      const priorities = await product.app.inject({
        method: 'POST',
        url: '/user_api/v1/uap_priority/uploads/add',
        headers: { ...boss, 'content-type': 'text/csv; charset=utf-8' },
        payload: 'shipToPartyCode;accessPointId;priority\n0050010001;fi-AP-pasila.6;1\n',
      });
      expect(priorities.statusCode, priorities.body).toBe(200);
      const listedPriorities = await product.app.inject({ method: 'GET', url: '/user_api/v1/tracking/uap/priorities', headers: boss });
      expect(listedPriorities.json().items).toEqual([
        expect.objectContaining({
          shipToPartyCode: '0050010001',
          uapinfos: [expect.objectContaining({ accessPointId: 'fi-AP-pasila.6', priority: 1, address: 'Ratapihantie 6', postalCode: '00520', city: 'Helsinki', country: 'FI' })],
        }),
        expect.objectContaining({ shipToPartyCode: '0050099999', uapinfos: [] }),
      ]);
      expect(await db.select().from(shipToParties).orderBy(asc(shipToParties.code))).toEqual([
        { code: '0050010001', name: 'Service depot Pasila', plant: 'FI01', country: 'FI', address: 'Ratapihantie 11, 00520 Helsinki' },
        { code: '0050099999', name: 'Head office', plant: null, country: 'FI', address: 'Keilaranta 1, 02150 Espoo' },
      ]);
    } finally {
      await product.close();
    }
  }, 240_000);

  it('changes nothing on a second start but what the file changed, and is in the audit log once', async () => {
    write('plants.csv', 'code,name,country,city,timezone\nFI01,Helsinki main depot,FI,Helsinki,Europe/Helsinki\n');
    // Without its work_center column: the vans keep their work centers.
    write('storage_locations.csv', 'plant;code;name\nFI01;V001;Van one\n');
    // A listed address that is a user already is not made super manager while a super manager exists (they decide).
    const product = await start({ BOOTSTRAP_SUPER_MANAGERS: 'boss@example.com,colleague@example.com' });
    try {
      const db = product.database.db;
      expect((await db.select().from(plants).orderBy(asc(plants.code))).map((plant) => [plant.code, plant.name])).toEqual([
        ['DE02', 'Berlin depot'],
        ['FI01', 'Helsinki main depot'],
      ]);
      expect(await db.select().from(storageLocations).where(eq(storageLocations.code, 'V001'))).toEqual([{ plant: 'FI01', code: 'V001', name: 'Van one', workCenter: 'FI01M001' }]);
      const colleague = await product.app.inject({ method: 'POST', url: '/auth/local/token', payload: { email: 'colleague@example.com' } });
      const profile = await product.app.inject({ method: 'GET', url: '/user_api/v1/user/profile', headers: bearer(colleague.json().idToken) });
      expect(profile.json().permissions).not.toContain('super_manager');
      const bootstrapped = await db.select().from(auditLog).where(eq(auditLog.action, 'user.bootstrapSuperManager'));
      expect(bootstrapped.map((row) => [row.actorEmail, (row.after as { email: string }).email])).toEqual([['bootstrap', 'boss@example.com']]);
    } finally {
      await product.close();
    }
  }, 240_000);

  it('does not start on a file with a mistake, names it, and writes nothing of the others', async () => {
    write('plants.csv', 'code;name;country;city;timezone\nSE03;Stockholm;SE;Stockholm;Europe/Stockholm\n');
    write('storage_locations.csv', 'plant;code;name;work_center\nSE03;0001;Warehouse;\nNO04;0001;Warehouse;\n');
    await expect(start()).rejects.toThrow(/storage_locations\.csv: line 3: plant NO04 is neither in plants\.csv nor in the database/);
    await expect(start({ BOOTSTRAP_SUPER_MANAGERS: 'not-an-address' })).rejects.toThrow(/BOOTSTRAP_SUPER_MANAGERS must list e-mail addresses/);
    await expect(start({ BOOTSTRAP_SUPER_MANAGERS: 'boss@elsewhere.example' })).rejects.toThrow(/boss@elsewhere\.example is not of ALLOWED_EMAIL_DOMAINS/);
    // A mistyped folder, or one without any of the files, is not a start with nothing loaded.
    await expect(start({ BOOTSTRAP_DIR: join(dir, 'no-such-folder') })).rejects.toThrow(/BOOTSTRAP_DIR: cannot read the folder .*no-such-folder \(ENOENT\)/);
    mkdirSync(join(dir, 'empty'));
    await expect(start({ BOOTSTRAP_DIR: join(dir, 'empty') })).rejects.toThrow(/BOOTSTRAP_DIR: .*empty holds none of plants\.csv, planner_groups\.csv, work_centers\.csv, storage_locations\.csv, ship_to_parties\.csv, access_points\.csv/);
    // Nothing of the right file was written either.
    write('storage_locations.csv', 'plant;code;name;work_center\n');
    write('plants.csv', 'code;name;country;city;timezone\n');
    const product = await start();
    try {
      expect((await product.database.db.select().from(plants)).map((plant) => plant.code).sort()).toEqual(['DE02', 'FI01']);
    } finally {
      await product.close();
    }
  }, 240_000);
});
