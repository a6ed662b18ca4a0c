/**
 * Static catalogue behind the demo seed (server/db/seed/): plants, places, people, parts and
 * carriers. Only lists live here; everything random or date-dependent is built by the seed's
 * section modules (world, stock, users, orders, counts, notifications, admin), so
 * this file reads like the "world" the demo is set in. Names are realistic but brand-free.
 */

export interface PlantDef {
  code: string;
  name: string;
  country: string;
  city: string;
  timezone: string;
  /** Locale of the local (non-demo) staff of this plant. */
  staffLocale: string;
  phonePrefix: string;
  organisation: string;
  warehouseAddress: string;
  /** Districts name the mechanic routes (work centers) and their vans. */
  districts: readonly string[];
  /** Streets for equipment sites; postal code and city are appended. */
  streets: readonly string[];
  postalCodes: readonly string[];
  plannerGroups: ReadonlyArray<{ code: string; name: string }>;
  carriers: readonly CarrierName[];
  /** Where parcels for this plant are scanned on their way. */
  parcelHubs: readonly string[];
}

export type CarrierName = 'Posti' | 'DHL' | 'DPD' | 'UPS' | 'Colissimo';

export const PLANTS: readonly PlantDef[] = [
  {
    code: 'FI01',
    name: 'Helsinki service center',
    country: 'FI',
    city: 'Helsinki',
    timezone: 'Europe/Helsinki',
    staffLocale: 'fi-FI',
    phonePrefix: '+35840',
    organisation: 'Lift Service Finland Oy',
    warehouseAddress: 'Ratapihantie 11, 00520 Helsinki',
    districts: ['Kallio', 'Pasila', 'Kamppi', 'Vallila', 'Herttoniemi', 'Munkkiniemi', 'Espoo Tapiola', 'Vantaa Tikkurila', 'Lauttasaari', 'Malmi', 'Itäkeskus', 'Leppävaara'],
    streets: ['Mannerheimintie', 'Hämeentie', 'Aleksanterinkatu', 'Runeberginkatu', 'Sörnäisten rantatie', 'Mechelininkatu', 'Itämerenkatu', 'Tapiolan keskustorni', 'Tikkurilantie', 'Kauppakartanonkatu'],
    postalCodes: ['00100', '00130', '00180', '00260', '00510', '00530', '00580', '02100', '01300', '00930'],
    plannerGroups: [
      { code: 'F10', name: 'Helsinki North maintenance' },
      { code: 'F20', name: 'Helsinki South maintenance' },
      { code: 'F30', name: 'Espoo and Vantaa repairs' },
    ],
    carriers: ['Posti', 'DHL'],
    parcelHubs: ['Vantaa parcel terminal', 'Helsinki sorting center', 'Tuusula hub'],
  },
  {
    code: 'DE02',
    name: 'Service-Niederlassung München',
    country: 'DE',
    city: 'München',
    timezone: 'Europe/Berlin',
    staffLocale: 'de-DE',
    phonePrefix: '+49151',
    organisation: 'Lift Service Deutschland GmbH',
    warehouseAddress: 'Landsberger Straße 290, 80687 München',
    districts: ['Schwabing', 'Sendling', 'Bogenhausen', 'Pasing', 'Giesing', 'Maxvorstadt', 'Neuhausen', 'Haidhausen', 'Moosach', 'Trudering', 'Garching', 'Unterföhring'],
    streets: ['Leopoldstraße', 'Sonnenstraße', 'Prinzregentenstraße', 'Landsberger Straße', 'Rosenheimer Straße', 'Dachauer Straße', 'Arnulfstraße', 'Lindwurmstraße', 'Nymphenburger Straße', 'Ungererstraße'],
    postalCodes: ['80331', '80335', '80339', '80469', '80538', '80636', '80687', '80802', '81369', '81675'],
    plannerGroups: [
      { code: 'D10', name: 'München Nord Wartung' },
      { code: 'D20', name: 'München Süd Wartung' },
      { code: 'D30', name: 'Modernisierung und Reparatur' },
    ],
    carriers: ['DHL', 'DPD', 'UPS'],
    parcelHubs: ['Paketzentrum Aschheim', 'Depot München-Freimann', 'Hub Feucht'],
  },
  {
    code: 'FR03',
    name: 'Agence de service Lyon',
    country: 'FR',
    city: 'Lyon',
    timezone: 'Europe/Paris',
    staffLocale: 'fr-FR',
    phonePrefix: '+33612',
    organisation: 'Lift Service France SAS',
    warehouseAddress: '14 Rue de la Villette, 69003 Lyon',
    districts: ['Part-Dieu', 'Confluence', 'Croix-Rousse', 'Gerland', 'Vaise', 'Villeurbanne', 'Bron', 'Presqu’île', 'Monplaisir', 'Perrache', 'Écully', 'Vénissieux'],
    streets: ['Rue de la République', 'Cours Lafayette', 'Avenue Jean Jaurès', 'Rue Garibaldi', 'Quai Perrache', 'Boulevard des Belges', 'Rue Paul Bert', 'Avenue Berthelot', 'Cours Émile Zola', 'Rue Marietton'],
    postalCodes: ['69001', '69002', '69003', '69004', '69006', '69007', '69008', '69009', '69100', '69500'],
    plannerGroups: [
      { code: 'L10', name: 'Lyon Centre maintenance' },
      { code: 'L20', name: 'Lyon Est maintenance' },
      { code: 'L30', name: 'Dépannage et modernisation' },
    ],
    carriers: ['Colissimo', 'DPD', 'UPS'],
    parcelHubs: ['Plateforme Corbas', 'Agence Lyon Gerland', 'Hub Chilly-Mazarin'],
  },
];

export const CARRIER_TRACKING_URLS: Record<CarrierName, (trackingNumber: string) => string> = {
  Posti: (tn) => `https://www.posti.fi/en/tracking#/shipment/${tn}`,
  DHL: (tn) => `https://www.dhl.com/global-en/home/tracking.html?tracking-id=${tn}`,
  DPD: (tn) => `https://tracking.dpd.de/status/en_US/parcel/${tn}`,
  UPS: (tn) => `https://www.ups.com/track?tracknum=${tn}`,
  Colissimo: (tn) => `https://www.laposte.fr/outils/suivre-vos-envois?code=${tn}`,
};

/** Ship-to-parties: the addresses parts are shipped to (depots, drop boxes, large sites). */
export const SHIP_TO_PARTIES: ReadonlyArray<{ code: string; name: string; plant: string; country: string; address: string }> = [
  { code: '0050010001', name: 'Service depot Helsinki Pasila', plant: 'FI01', country: 'FI', address: 'Ratapihantie 11, 00520 Helsinki' },
  { code: '0050010002', name: 'Mechanic drop box Espoo', plant: 'FI01', country: 'FI', address: 'Keilaranta 5, 02150 Espoo' },
  { code: '0050010003', name: 'Helsinki airport maintenance base', plant: 'FI01', country: 'FI', address: 'Lentäjäntie 3, 01530 Vantaa' },
  { code: '0050010004', name: 'Tampere satellite depot', plant: 'FI01', country: 'FI', address: 'Hatanpään valtatie 24, 33100 Tampere' },
  { code: '0050020001', name: 'Servicestützpunkt München West', plant: 'DE02', country: 'DE', address: 'Landsberger Straße 290, 80687 München' },
  { code: '0050020002', name: 'Monteurlager Garching', plant: 'DE02', country: 'DE', address: 'Schleißheimer Straße 90, 85748 Garching' },
  { code: '0050020003', name: 'Klinikum Großhadern Technik', plant: 'DE02', country: 'DE', address: 'Marchioninistraße 15, 81377 München' },
  { code: '0050020004', name: 'Servicestützpunkt Augsburg', plant: 'DE02', country: 'DE', address: 'Haunstetter Straße 112, 86161 Augsburg' },
  { code: '0050030001', name: 'Dépôt service Lyon Villette', plant: 'FR03', country: 'FR', address: '14 Rue de la Villette, 69003 Lyon' },
  { code: '0050030002', name: 'Point relais techniciens Villeurbanne', plant: 'FR03', country: 'FR', address: '45 Cours Émile Zola, 69100 Villeurbanne' },
  { code: '0050030003', name: 'Hôpital Édouard Herriot services techniques', plant: 'FR03', country: 'FR', address: '5 Place d’Arsonval, 69003 Lyon' },
  { code: '0050030004', name: 'Dépôt service Grenoble', plant: 'FR03', country: 'FR', address: '8 Rue Général Mangin, 38100 Grenoble' },
];

/** Parcel lockers and pickup points ("access points") near the ship-to-parties. */
export const ACCESS_POINTS: ReadonlyArray<{ id: string; name: string; address: string; postalCode: string; city: string; country: string }> = [
  { id: 'FI-AP-10231', name: 'Parcel locker Pasila station', address: 'Ratapihantie 6', postalCode: '00520', city: 'Helsinki', country: 'FI' },
  { id: 'FI-AP-10245', name: 'Parcel locker Kamppi center', address: 'Urho Kekkosen katu 1', postalCode: '00100', city: 'Helsinki', country: 'FI' },
  { id: 'FI-AP-10302', name: 'Pickup point Kallio grocery', address: 'Hämeentie 13', postalCode: '00530', city: 'Helsinki', country: 'FI' },
  { id: 'FI-AP-10417', name: 'Parcel locker Keilaniemi', address: 'Keilaranta 1', postalCode: '02150', city: 'Espoo', country: 'FI' },
  { id: 'FI-AP-10488', name: 'Parcel locker Tikkurila station', address: 'Asemakuja 2', postalCode: '01300', city: 'Vantaa', country: 'FI' },
  { id: 'FI-AP-10520', name: 'Pickup point Aviapolis', address: 'Ohtolankatu 4', postalCode: '01510', city: 'Vantaa', country: 'FI' },
  { id: 'FI-AP-10611', name: 'Parcel locker Tampere Koskikeskus', address: 'Hatanpään valtatie 1', postalCode: '33100', city: 'Tampere', country: 'FI' },
  { id: 'DE-AP-20114', name: 'Packstation 112 Laim', address: 'Fürstenrieder Straße 5', postalCode: '80687', city: 'München', country: 'DE' },
  { id: 'DE-AP-20158', name: 'Paketshop Westend', address: 'Westendstraße 160', postalCode: '80339', city: 'München', country: 'DE' },
  { id: 'DE-AP-20203', name: 'Packstation 145 Garching', address: 'Bürgerplatz 9', postalCode: '85748', city: 'Garching', country: 'DE' },
  { id: 'DE-AP-20277', name: 'Paketshop Hadern', address: 'Heiglhofstraße 2', postalCode: '81377', city: 'München', country: 'DE' },
  { id: 'DE-AP-20319', name: 'Packstation 171 Augsburg Hbf', address: 'Viktoriastraße 1', postalCode: '86150', city: 'Augsburg', country: 'DE' },
  { id: 'DE-AP-20352', name: 'Paketshop Schwabing', address: 'Leopoldstraße 82', postalCode: '80802', city: 'München', country: 'DE' },
  { id: 'DE-AP-20390', name: 'Packstation 129 Sendling', address: 'Plinganserstraße 30', postalCode: '81369', city: 'München', country: 'DE' },
  { id: 'FR-AP-30105', name: 'Consigne Part-Dieu', address: '5 Place Charles Béraudier', postalCode: '69003', city: 'Lyon', country: 'FR' },
  { id: 'FR-AP-30141', name: 'Point relais Tabac de la Villette', address: '92 Rue de la Villette', postalCode: '69003', city: 'Lyon', country: 'FR' },
  { id: 'FR-AP-30188', name: 'Consigne Gratte-Ciel', address: '12 Avenue Henri Barbusse', postalCode: '69100', city: 'Villeurbanne', country: 'FR' },
  { id: 'FR-AP-30212', name: 'Point relais Grange Blanche', address: '170 Avenue Rockefeller', postalCode: '69008', city: 'Lyon', country: 'FR' },
  { id: 'FR-AP-30266', name: 'Consigne Grenoble Gare', address: '1 Place de la Gare', postalCode: '38000', city: 'Grenoble', country: 'FR' },
  { id: 'FR-AP-30297', name: 'Point relais Confluence', address: '112 Cours Charlemagne', postalCode: '69002', city: 'Lyon', country: 'FR' },
];

export interface PartDef {
  name: string;
  unit: 'PC' | 'M' | 'KG' | 'L' | 'SET';
  group: string;
  variants: readonly string[];
}

/** Elevator and escalator spare parts; variants and model series multiply them into ~2,000 materials. */
export const PART_CATALOG: readonly PartDef[] = [
  { name: 'Door roller assembly', unit: 'PC', group: 'DOORS', variants: ['Ø48 mm', 'Ø60 mm', 'Ø75 mm', 'eccentric'] },
  { name: 'Landing door lock', unit: 'PC', group: 'DOORS', variants: ['LH', 'RH', 'center opening'] },
  { name: 'Car door operator belt', unit: 'PC', group: 'DOORS', variants: ['800 mm', '900 mm', '1100 mm'] },
  { name: 'Door operator motor', unit: 'PC', group: 'DOORS', variants: ['24 V DC', '230 V AC'] },
  { name: 'Door light curtain', unit: 'SET', group: 'DOORS', variants: ['2000 mm', '2200 mm'] },
  { name: 'Landing door sill', unit: 'PC', group: 'DOORS', variants: ['800 mm', '900 mm', '1000 mm'] },
  { name: 'Door gib', unit: 'SET', group: 'DOORS', variants: ['nylon', 'steel insert'] },
  { name: 'Door closer spring', unit: 'PC', group: 'DOORS', variants: ['light', 'heavy'] },
  { name: 'Door contact switch', unit: 'PC', group: 'DOORS', variants: ['2-pole', '3-pole'] },
  { name: 'Hanger plate', unit: 'PC', group: 'DOORS', variants: ['LH', 'RH'] },
  { name: 'Brake pad set', unit: 'SET', group: 'MACHINE', variants: ['drum brake', 'disc brake'] },
  { name: 'Brake coil', unit: 'PC', group: 'MACHINE', variants: ['110 V', '207 V'] },
  { name: 'Brake microswitch', unit: 'PC', group: 'MACHINE', variants: [] },
  { name: 'Traction sheave', unit: 'PC', group: 'MACHINE', variants: ['Ø320 mm', 'Ø400 mm', 'Ø520 mm'] },
  { name: 'Machine bearing', unit: 'PC', group: 'MACHINE', variants: ['6310 2RS', '6312 2RS', '22216 E'] },
  { name: 'Encoder', unit: 'PC', group: 'MACHINE', variants: ['1024 ppr', '2048 ppr', 'absolute'] },
  { name: 'Gear oil', unit: 'L', group: 'CONSUMABLES', variants: ['ISO VG 220', 'ISO VG 320', 'ISO VG 460'] },
  { name: 'Hydraulic oil', unit: 'L', group: 'CONSUMABLES', variants: ['HLP 46', 'HLP 68'] },
  { name: 'Guide rail lubricant', unit: 'L', group: 'CONSUMABLES', variants: [] },
  { name: 'Bearing grease', unit: 'KG', group: 'CONSUMABLES', variants: ['lithium', 'high temperature'] },
  { name: 'Traction rope 8mm', unit: 'M', group: 'ROPES', variants: ['8x19', '8x36'] },
  { name: 'Traction rope 10mm', unit: 'M', group: 'ROPES', variants: ['8x19', 'steel core'] },
  { name: 'Traction rope 13mm', unit: 'M', group: 'ROPES', variants: ['8x19'] },
  { name: 'Governor rope 6mm', unit: 'M', group: 'ROPES', variants: [] },
  { name: 'Suspension belt', unit: 'M', group: 'ROPES', variants: ['30 mm', '60 mm'] },
  { name: 'Compensation chain', unit: 'M', group: 'ROPES', variants: ['sheathed', 'bare'] },
  { name: 'Travelling cable', unit: 'M', group: 'ROPES', variants: ['24-core', '40-core', '56-core'] },
  { name: 'Rope clamp', unit: 'PC', group: 'ROPES', variants: ['8 mm', '10 mm', '13 mm'] },
  { name: 'Inverter fan', unit: 'PC', group: 'CONTROL', variants: ['80 mm', '120 mm'] },
  { name: 'Frequency inverter', unit: 'PC', group: 'CONTROL', variants: ['5.5 kW', '11 kW', '18.5 kW'] },
  { name: 'Main controller board', unit: 'PC', group: 'CONTROL', variants: ['rev. B', 'rev. C'] },
  { name: 'Car controller board', unit: 'PC', group: 'CONTROL', variants: [] },
  { name: 'Contactor', unit: 'PC', group: 'CONTROL', variants: ['24 V', '110 V', '230 V'] },
  { name: 'Safety relay', unit: 'PC', group: 'CONTROL', variants: [] },
  { name: 'Fuse', unit: 'PC', group: 'CONTROL', variants: ['2 A', '6 A', '10 A', '16 A'] },
  { name: 'Power supply unit', unit: 'PC', group: 'CONTROL', variants: ['24 V 5 A', '24 V 10 A'] },
  { name: 'Battery pack emergency light', unit: 'PC', group: 'CONTROL', variants: ['12 V 7 Ah', '24 V 2 Ah'] },
  { name: 'Push button COP', unit: 'PC', group: 'FIXTURES', variants: ['round', 'square', 'braille'] },
  { name: 'Push button landing', unit: 'PC', group: 'FIXTURES', variants: ['up', 'down', 'up/down'] },
  { name: 'Position indicator display', unit: 'PC', group: 'FIXTURES', variants: ['dot matrix', 'TFT 4.3"', 'TFT 7"'] },
  { name: 'Alarm button', unit: 'PC', group: 'FIXTURES', variants: [] },
  { name: 'Emergency telephone', unit: 'PC', group: 'FIXTURES', variants: ['GSM', 'analog'] },
  { name: 'Car light LED panel', unit: 'PC', group: 'CAR', variants: ['300x300', '600x600'] },
  { name: 'Car fan', unit: 'PC', group: 'CAR', variants: [] },
  { name: 'Load weighing sensor', unit: 'PC', group: 'CAR', variants: ['strain gauge', 'rope clamp type'] },
  { name: 'Guide shoe insert', unit: 'SET', group: 'CAR', variants: ['10 mm rail', '16 mm rail'] },
  { name: 'Roller guide', unit: 'PC', group: 'CAR', variants: ['Ø75 mm', 'Ø100 mm'] },
  { name: 'Handrail', unit: 'PC', group: 'CAR', variants: ['stainless', 'oak'] },
  { name: 'Safety gear', unit: 'SET', group: 'SAFETY', variants: ['progressive', 'instantaneous'] },
  { name: 'Overspeed governor', unit: 'PC', group: 'SAFETY', variants: ['1.0 m/s', '1.6 m/s', '2.5 m/s'] },
  { name: 'Buffer', unit: 'PC', group: 'SAFETY', variants: ['polyurethane', 'oil'] },
  { name: 'Limit switch', unit: 'PC', group: 'SAFETY', variants: ['final', 'slow-down'] },
  { name: 'Pit stop switch', unit: 'PC', group: 'SAFETY', variants: [] },
  { name: 'Shaft magnet switch', unit: 'PC', group: 'SHAFT', variants: ['bistable', 'monostable'] },
  { name: 'Shaft information tape', unit: 'M', group: 'SHAFT', variants: [] },
  { name: 'Shaft light fitting', unit: 'PC', group: 'SHAFT', variants: [] },
  { name: 'Rail bracket', unit: 'PC', group: 'SHAFT', variants: ['T89', 'T127'] },
  { name: 'Counterweight filler', unit: 'PC', group: 'SHAFT', variants: ['25 kg', '40 kg'] },
  { name: 'Escalator step chain roller', unit: 'PC', group: 'ESCALATOR', variants: [] },
  { name: 'Escalator handrail', unit: 'M', group: 'ESCALATOR', variants: ['black', 'grey'] },
  { name: 'Comb plate', unit: 'PC', group: 'ESCALATOR', variants: ['left', 'center', 'right'] },
  { name: 'Step demarcation insert', unit: 'SET', group: 'ESCALATOR', variants: ['yellow'] },
  { name: 'Hydraulic valve block', unit: 'PC', group: 'HYDRAULIC', variants: ['1.5"', '2"'] },
  { name: 'Hydraulic seal kit', unit: 'SET', group: 'HYDRAULIC', variants: ['Ø70 mm', 'Ø90 mm', 'Ø110 mm'] },
  { name: 'Cable ties', unit: 'SET', group: 'CONSUMABLES', variants: ['200 mm', '300 mm'] },
  { name: 'Screw assortment', unit: 'SET', group: 'CONSUMABLES', variants: ['M5', 'M6', 'M8'] },
];

/** Model series codes that turn one part into several part numbers. */
export const MODEL_SERIES: readonly string[] = [
  'series 100', 'series 200', 'series 300', 'series 500', 'MX10', 'MX18', 'TX-2', 'TX-4', 'LD-500', 'LD-700',
  'HR-1', 'HR-3', 'ES-30', 'ES-35', 'MRL-1000', 'MRL-1600', 'G2', 'G3', 'classic', 'retrofit',
];

export const EQUIPMENT_KINDS: readonly string[] = [
  'Passenger elevator 630 kg, 8 stops',
  'Passenger elevator 1000 kg, 12 stops',
  'Machine-room-less elevator 800 kg, 6 stops',
  'Hydraulic elevator 400 kg, 3 stops',
  'Freight elevator 2500 kg, 4 stops',
  'Bed elevator 1600 kg, 9 stops',
  'Escalator 30°, rise 4.5 m',
  'Moving walk 12°, 40 m',
  'Panorama elevator 1275 kg, 15 stops',
];

export const BUILDING_KINDS: readonly string[] = [
  'Residential building', 'Office tower', 'Shopping center', 'Hospital', 'Hotel', 'Metro station', 'University campus', 'Parking garage',
];

/** Staff besides the demo accounts: spread over the plants for team stock, user lists and statistics. */
export interface StaffDef {
  email: string;
  displayName: string;
  plant: string;
  role: 'mechanic' | 'supervisor';
  /** Mechanics: index of the plant's work center (0 = M001). Supervisors: planner group code. */
  workCenterIndex?: number;
  plannerGroup?: string;
  expiresInDays?: number;
}

export const STAFF: readonly StaffDef[] = [
  { email: 'mikko.virtanen@lift.example', displayName: 'Mikko Virtanen', plant: 'FI01', role: 'mechanic', workCenterIndex: 1 },
  { email: 'aino.korhonen@lift.example', displayName: 'Aino Korhonen', plant: 'FI01', role: 'mechanic', workCenterIndex: 3 },
  { email: 'ville.makinen@lift.example', displayName: 'Ville Mäkinen', plant: 'FI01', role: 'mechanic', workCenterIndex: 2, expiresInDays: 90 },
  { email: 'juha.nieminen@lift.example', displayName: 'Juha Nieminen', plant: 'FI01', role: 'supervisor', plannerGroup: 'F20' },
  { email: 'lukas.mueller@lift.example', displayName: 'Lukas Müller', plant: 'DE02', role: 'mechanic', workCenterIndex: 0 },
  { email: 'anna.schmidt@lift.example', displayName: 'Anna Schmidt', plant: 'DE02', role: 'mechanic', workCenterIndex: 1 },
  { email: 'felix.weber@lift.example', displayName: 'Felix Weber', plant: 'DE02', role: 'mechanic', workCenterIndex: 2 },
  { email: 'sophie.wagner@lift.example', displayName: 'Sophie Wagner', plant: 'DE02', role: 'mechanic', workCenterIndex: 3 },
  { email: 'thomas.becker@lift.example', displayName: 'Thomas Becker', plant: 'DE02', role: 'supervisor', plannerGroup: 'D10' },
  { email: 'katharina.hoffmann@lift.example', displayName: 'Katharina Hoffmann', plant: 'DE02', role: 'supervisor', plannerGroup: 'D20' },
  { email: 'julien.martin@parts.example', displayName: 'Julien Martin', plant: 'FR03', role: 'mechanic', workCenterIndex: 0 },
  { email: 'camille.bernard@parts.example', displayName: 'Camille Bernard', plant: 'FR03', role: 'mechanic', workCenterIndex: 1 },
  { email: 'nicolas.dubois@parts.example', displayName: 'Nicolas Dubois', plant: 'FR03', role: 'mechanic', workCenterIndex: 2 },
  { email: 'emilie.petit@parts.example', displayName: 'Émilie Petit', plant: 'FR03', role: 'mechanic', workCenterIndex: 3 },
  { email: 'isabelle.laurent@parts.example', displayName: 'Isabelle Laurent', plant: 'FR03', role: 'supervisor', plannerGroup: 'L10' },
];

export const FILE_TYPES: readonly string[] = ['ORDERS', 'DELIVERIES', 'STOCK', 'MATERIALS'];

/** Typical line-level problems of the ERP interface files. */
export const FILE_ERROR_MESSAGES: readonly string[] = [
  'Unknown plant code "FI1"',
  'Material code is empty',
  'Quantity "12,5" is not a number',
  'Delivery date "2024-02-30" is not a valid date',
  'Duplicate order item for service order',
  'Storage location does not exist in plant',
  'Unexpected column count 17 (expected 18)',
];

export const IMPORTANT_MESSAGE =
  'Planned maintenance: ordering and stock counts are unavailable on Saturday 22:00–23:30 CET while the ERP system is upgraded. Counts saved offline are sent automatically afterwards.';
