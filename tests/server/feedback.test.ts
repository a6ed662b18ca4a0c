/** The six feedback forms (§3/§9): validated with the §5 messages, plants limited per §6, own list paged. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

const VALID = {
  Feedback: { type: 'Feedback', rating: 5, openFeedback: 'Pickup codes in the app, please.' },
  ReportIssue: { type: 'ReportIssue', plant: 'FI01', page: '/status-monitor', description: 'ETA jumped back a week.' },
  RequestUpdateOrder: { type: 'RequestUpdateOrder', plant: 'FI01', serviceOrder: '4001200345', message: 'Deliver to the Pasila locker.' },
  RequestStockTransfer: { type: 'RequestStockTransfer', plant: 'FI01', storageLocationFrom: '0001', storageLocationTo: 'V001', materialCode: 'KM123', quantity: 2 },
  ReportStockDifference: { type: 'ReportStockDifference', plant: 'FI01', storageLocation: 'V001', materialCode: 'KM123', bookQuantity: 4, countedQuantity: 0 },
  RequestUpdateAccessPointContactNotification: {
    type: 'RequestUpdateAccessPointContactNotification',
    shipToPartyCode: '0050010001',
    accessPointId: 'FI-AP-10001',
    contactEmail: ' Store.Helsinki@Example.com ',
    contactPhone: '+358 40 123 4567',
  },
} as const;

describe.each(ENGINES)('feedback on %s', (engine) => {
  let product: TestProduct;
  const tokens = new Map<string, string>();
  const call = async (method: 'GET' | 'POST', email: string, url: string, payload?: unknown) => {
    if (!tokens.has(email)) tokens.set(email, await product.token(email));
    return product.app.inject({ method, url: `/user_api/v1${url}`, headers: bearer(tokens.get(email)!), payload: payload as never });
  };

  beforeAll(async () => {
    product = await createTestProduct(engine);
  });
  afterAll(async () => product?.close());

  it('accepts each of the six forms and lists them newest first in the sender’s own pages', async () => {
    const before = (await call('GET', 'mechanic@example.com', '/feedback?maxResults=100')).json().items.length;
    for (const body of Object.values(VALID)) {
      const res = await call('POST', 'mechanic@example.com', '/feedback', body);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ type: body.type, created: expect.any(String) });
    }
    const contact = (await call('GET', 'mechanic@example.com', '/feedback?maxResults=1')).json();
    expect(contact).toMatchObject({ page: 1, has_prev: false, has_next: true });
    expect(contact.pages).toBe(before + 6);
    expect(contact.items[0].type).toBe('RequestUpdateAccessPointContactNotification');
    // Normalised as §5 compares them: e-mail trimmed and lower case, phone digits only after +.
    expect(contact.items[0].payload).toMatchObject({ contactEmail: 'store.helsinki@example.com', contactPhone: '+358401234567' });
    const all = (await call('GET', 'mechanic@example.com', '/feedback?maxResults=100')).json();
    expect(all.items).toHaveLength(before + 6);
    const times = all.items.map((i: { created: string }) => i.created);
    expect(times).toEqual([...times].sort().reverse());
    const onlyRatings = (await call('GET', 'mechanic@example.com', '/feedback?type=Feedback&maxResults=100')).json();
    expect(onlyRatings.items.every((i: { type: string }) => i.type === 'Feedback')).toBe(true);
    // Nobody reads another user's feedback.
    const supervisor = (await call('GET', 'supervisor@example.com', '/feedback?maxResults=100')).json();
    expect(supervisor.items.some((i: { payload: { openFeedback?: string } }) => i.payload.openFeedback === VALID.Feedback.openFeedback)).toBe(false);
  });

  it.each([
    ['Feedback', { rating: 0 }, 'Field rating must be between 1 and 5'],
    ['Feedback', { rating: undefined }, 'Field rating is required'],
    ['ReportIssue', { description: '   ' }, 'Field description is required'],
    ['RequestUpdateOrder', { serviceOrder: '' }, 'Field serviceOrder is required'],
    ['RequestStockTransfer', { quantity: 0 }, 'Quantity should be greater than 0'],
    ['RequestStockTransfer', { storageLocationTo: '0001' }, 'Storage location to must differ from storage location from'],
    ['ReportStockDifference', { countedQuantity: -1 }, 'Quantity should be greater than or equal to 0'],
    ['RequestUpdateAccessPointContactNotification', { contactEmail: 'store@@example.com' }, 'Email must have one @ character surrounded by non-@ characters.'],
    [
      'RequestUpdateAccessPointContactNotification',
      { contactPhone: '0401234567' },
      'The mobile phone number you entered is not valid. Please enter a valid mobile phone number starting with the country code.',
    ],
  ] as const)('refuses %s with %o: "%s"', async (type, change, message) => {
    const res = await call('POST', 'mechanic@example.com', '/feedback', { ...VALID[type], ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
  });

  it('refuses text the database cannot store with a 400, and stores nothing', async () => {
    const before = (await call('GET', 'mechanic@example.com', '/feedback?maxResults=100')).json().items.length;
    const res = await call('POST', 'mechanic@example.com', '/feedback', { ...VALID.Feedback, openFeedback: 'broken \u0000 text' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(/^Text (must not contain NUL characters|contains a character the database cannot store)$/);
    expect((await call('GET', 'mechanic@example.com', '/feedback?maxResults=100')).json().items.length).toBe(before);
  });

  it('refuses a type outside the six', async () => {
    const res = await call('POST', 'mechanic@example.com', '/feedback', { type: 'Complaint', text: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('Feedback type must be one of Feedback, ReportIssue');
  });

  it('limits plants to the sender’s own; super managers get every plant', async () => {
    expect((await call('GET', 'mechanic@example.com', '/feedback/plants')).json().plants.map((p: { code: string }) => p.code)).toEqual(['FI01']);
    expect((await call('GET', 'manager@example.com', '/feedback/plants')).json().plants.map((p: { code: string }) => p.code)).toEqual(['DE02', 'FI01', 'FR03']);
    expect((await call('GET', 'pm.reader@example.com', '/feedback/plants')).json().plants).toEqual([]);
    const foreign = await call('POST', 'mechanic@example.com', '/feedback', { ...VALID.RequestStockTransfer, plant: 'DE02' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toBe('Plant DE02 is not one of your plants; choose one of: FI01');
    expect(foreign.json()).toMatchObject({ code: 'feedbackPlantNotYours', params: { plant: 'DE02', choices: 'FI01' } });
    expect((await call('POST', 'manager@example.com', '/feedback', { ...VALID.RequestStockTransfer, plant: 'de02' })).statusCode).toBe(201);
  });

  it('refuses pending users and bad paging', async () => {
    expect((await call('GET', 'pending@example.com', '/feedback')).statusCode).toBe(403);
    expect((await call('GET', 'mechanic@example.com', '/feedback?page=0')).statusCode).toBe(400);
    expect((await call('GET', 'mechanic@example.com', '/feedback?maxResults=101')).statusCode).toBe(400);
  });
});
