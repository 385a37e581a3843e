/**
 * The business categories of the lead directory (the copy promises 90+). Slugs are stored on
 * directory_contacts.category and never change; names and synonyms may be edited. Synonyms feed the
 * keyword search ("haulage" finds logistics companies) and the CSV importer's category mapping.
 */
export interface BusinessCategory {
  slug: string;
  name: string;
  group: CategoryGroup;
  synonyms: readonly string[];
}

export const CATEGORY_GROUPS = [
  'Agriculture & Food',
  'Manufacturing & Industry',
  'Construction & Real Estate',
  'Energy & Utilities',
  'Transport & Logistics',
  'Retail & Trade',
  'Hospitality & Leisure',
  'Health',
  'Education',
  'Finance & Insurance',
  'Professional Services',
  'Technology & Telecoms',
  'Media & Creative',
  'Personal Services',
  'Automotive',
  'Public Sector & Non-profit',
] as const;
export type CategoryGroup = (typeof CATEGORY_GROUPS)[number];

const c = (slug: string, name: string, group: CategoryGroup, synonyms: string[]): BusinessCategory => ({
  slug,
  name,
  group,
  synonyms,
});

export const BUSINESS_CATEGORIES = [
  // Agriculture & Food
  c('agriculture', 'Agriculture & Farming', 'Agriculture & Food', [
    'farm',
    'farming',
    'crops',
    'agribusiness',
    'plantation',
    'cocoa',
    'cassava',
  ]),
  c('livestock-poultry', 'Livestock & Poultry', 'Agriculture & Food', [
    'poultry',
    'cattle',
    'piggery',
    'ranch',
    'dairy farm',
    'eggs',
  ]),
  c('fisheries-aquaculture', 'Fisheries & Aquaculture', 'Agriculture & Food', [
    'fish farm',
    'fishing',
    'aquaculture',
    'catfish',
    'seafood',
  ]),
  c('agro-processing', 'Agro-processing', 'Agriculture & Food', [
    'food processing',
    'milling',
    'rice mill',
    'garri',
    'palm oil',
    'cashew processing',
  ]),
  c('food-beverage-manufacturing', 'Food & Beverage Manufacturing', 'Agriculture & Food', [
    'beverages',
    'bottling',
    'brewery',
    'soft drinks',
    'snacks',
    'bakery products',
  ]),
  c('restaurants', 'Restaurants', 'Agriculture & Food', [
    'restaurant',
    'eatery',
    'buka',
    'diner',
    'fast food',
    'chop house',
  ]),
  c('catering', 'Catering & Events Food', 'Agriculture & Food', [
    'caterer',
    'event catering',
    'small chops',
    'food service',
  ]),
  c('bakeries', 'Bakeries & Confectionery', 'Agriculture & Food', [
    'bakery',
    'bread',
    'cakes',
    'pastry',
    'confectionery',
  ]),
  c('food-distribution', 'Food Distribution', 'Agriculture & Food', [
    'foodstuff',
    'grocery wholesale',
    'provisions',
    'fmcg distribution',
  ]),
  c('agricultural-equipment', 'Agricultural Equipment & Inputs', 'Agriculture & Food', [
    'tractors',
    'fertiliser',
    'fertilizer',
    'seeds',
    'agrochemicals',
    'irrigation',
  ]),

  // Manufacturing & Industry
  c('manufacturing', 'General Manufacturing', 'Manufacturing & Industry', [
    'factory',
    'manufacturer',
    'production',
    'industrial',
  ]),
  c('textiles-garments', 'Textiles & Garment Manufacturing', 'Manufacturing & Industry', [
    'textile',
    'garment factory',
    'ankara',
    'adire',
    'kente',
    'weaving',
  ]),
  c('plastics-packaging', 'Plastics & Packaging', 'Manufacturing & Industry', [
    'packaging',
    'plastic',
    'cartons',
    'pet bottles',
    'labels',
  ]),
  c('chemicals', 'Chemicals', 'Manufacturing & Industry', [
    'chemical',
    'paints',
    'detergents',
    'industrial chemicals',
  ]),
  c('pharmaceutical-manufacturing', 'Pharmaceutical Manufacturing', 'Manufacturing & Industry', [
    'drug manufacturer',
    'pharma',
    'generics',
  ]),
  c('metal-fabrication', 'Metal Fabrication & Steel', 'Manufacturing & Industry', [
    'steel',
    'welding',
    'fabrication',
    'iron rods',
    'aluminium',
  ]),
  c('furniture', 'Furniture & Woodwork', 'Manufacturing & Industry', [
    'furniture',
    'carpentry',
    'woodwork',
    'joinery',
    'interior furniture',
  ]),
  c('printing', 'Printing & Publishing', 'Manufacturing & Industry', [
    'printer',
    'printing press',
    'publishing',
    'branding materials',
    'large format',
  ]),
  c('mining', 'Mining & Quarrying', 'Manufacturing & Industry', [
    'mine',
    'quarry',
    'gold',
    'minerals',
    'granite',
    'solid minerals',
  ]),
  c('industrial-equipment', 'Industrial Machinery & Equipment', 'Manufacturing & Industry', [
    'machinery',
    'equipment supplier',
    'generators',
    'compressors',
    'pumps',
  ]),
  c('cosmetics-manufacturing', 'Cosmetics & Toiletries Manufacturing', 'Manufacturing & Industry', [
    'soap making',
    'toiletries',
    'skincare production',
    'shea butter',
  ]),

  // Construction & Real Estate
  c('construction', 'Construction & Contractors', 'Construction & Real Estate', [
    'contractor',
    'builder',
    'civil works',
    'building construction',
    'general contractor',
  ]),
  c('civil-engineering', 'Civil Engineering', 'Construction & Real Estate', [
    'roads',
    'bridges',
    'infrastructure',
    'structural engineering',
  ]),
  c('architecture', 'Architecture', 'Construction & Real Estate', [
    'architect',
    'architectural design',
    'building design',
  ]),
  c('real-estate', 'Real Estate Agencies', 'Construction & Real Estate', [
    'estate agent',
    'realtor',
    'property agent',
    'realty',
    'letting',
  ]),
  c('property-development', 'Property Development', 'Construction & Real Estate', [
    'developer',
    'housing estate',
    'property developer',
  ]),
  c('facility-management', 'Facility Management', 'Construction & Real Estate', [
    'facilities',
    'property management',
    'building maintenance',
  ]),
  c('building-materials', 'Building Materials', 'Construction & Real Estate', [
    'cement',
    'blocks',
    'roofing',
    'tiles',
    'hardware store',
  ]),
  c('interior-design', 'Interior Design & Decor', 'Construction & Real Estate', [
    'interior decorator',
    'decor',
    'interiors',
    'fit-out',
  ]),
  c('plumbing-electrical', 'Plumbing & Electrical Services', 'Construction & Real Estate', [
    'plumber',
    'electrician',
    'wiring',
    'installations',
  ]),
  c('cleaning-services', 'Cleaning & Fumigation', 'Construction & Real Estate', [
    'cleaning',
    'janitorial',
    'fumigation',
    'pest control',
  ]),

  // Energy & Utilities
  c('oil-gas', 'Oil & Gas', 'Energy & Utilities', [
    'petroleum',
    'upstream',
    'downstream',
    'oilfield services',
    'lpg',
    'filling station',
  ]),
  c('renewable-energy', 'Solar & Renewable Energy', 'Energy & Utilities', [
    'solar',
    'solar panels',
    'inverter',
    'off-grid',
    'clean energy',
    'mini-grid',
  ]),
  c('power-utilities', 'Power & Utilities', 'Energy & Utilities', [
    'electricity',
    'power distribution',
    'utility',
    'energy company',
  ]),
  c('water-sanitation', 'Water & Sanitation', 'Energy & Utilities', [
    'borehole',
    'water treatment',
    'sachet water',
    'table water',
    'sanitation',
  ]),
  c('waste-recycling', 'Waste Management & Recycling', 'Energy & Utilities', [
    'recycling',
    'waste collection',
    'scrap',
    'environmental services',
  ]),

  // Transport & Logistics
  c('logistics', 'Logistics & Freight', 'Transport & Logistics', [
    'haulage',
    'freight',
    'courier',
    'delivery',
    'dispatch',
    'trucking',
    'last mile',
    'shipping',
  ]),
  c('clearing-forwarding', 'Clearing & Forwarding', 'Transport & Logistics', [
    'customs broker',
    'freight forwarder',
    'clearing agent',
    'import export agent',
  ]),
  c('warehousing', 'Warehousing & Storage', 'Transport & Logistics', [
    'warehouse',
    'storage',
    'cold chain',
    'fulfilment',
    'fulfillment',
  ]),
  c('transport-passenger', 'Passenger Transport', 'Transport & Logistics', [
    'bus company',
    'transport company',
    'interstate transport',
    'shuttle',
  ]),
  c('aviation', 'Aviation & Airlines', 'Transport & Logistics', [
    'airline',
    'aviation services',
    'charter flights',
    'ground handling',
  ]),
  c('maritime', 'Shipping & Maritime', 'Transport & Logistics', [
    'shipping line',
    'port services',
    'marine',
    'vessel',
    'stevedoring',
  ]),
  c('ride-hailing-fleet', 'Fleet & Ride-hailing', 'Transport & Logistics', [
    'fleet management',
    'taxi',
    'ride hailing',
    'car hire',
    'okada',
    'tricycle',
  ]),

  // Retail & Trade
  c('retail', 'Retail Stores', 'Retail & Trade', ['shop', 'store', 'retailer', 'boutique', 'mini mart']),
  c('supermarkets', 'Supermarkets & Grocery', 'Retail & Trade', [
    'supermarket',
    'grocery',
    'hypermarket',
    'convenience store',
  ]),
  c('wholesale-distribution', 'Wholesale & Distribution', 'Retail & Trade', [
    'wholesaler',
    'distributor',
    'trading company',
    'general merchandise',
  ]),
  c('ecommerce', 'E-commerce', 'Retail & Trade', [
    'online store',
    'online shop',
    'marketplace',
    'e-commerce',
    'social commerce',
  ]),
  c('import-export', 'Import & Export Trading', 'Retail & Trade', [
    'importer',
    'exporter',
    'commodity trading',
    'general trading',
  ]),
  c('electronics-retail', 'Electronics & Appliances', 'Retail & Trade', [
    'electronics',
    'phones',
    'gadgets',
    'home appliances',
    'mobile phones',
  ]),
  c('pharmacies', 'Pharmacies', 'Retail & Trade', [
    'pharmacy',
    'chemist',
    'drug store',
    'patent medicine store',
  ]),
  c('office-supplies', 'Office Supplies & Stationery', 'Retail & Trade', [
    'stationery',
    'office supplies',
    'office equipment',
  ]),

  // Hospitality & Leisure
  c('hotels', 'Hotels & Lodging', 'Hospitality & Leisure', [
    'hotel',
    'guest house',
    'lodge',
    'motel',
    'resort',
    'short let',
    'serviced apartments',
  ]),
  c('travel-agencies', 'Travel Agencies & Tour Operators', 'Hospitality & Leisure', [
    'travel agent',
    'tour operator',
    'safari',
    'visa services',
    'ticketing',
  ]),
  c('event-management', 'Event Management', 'Hospitality & Leisure', [
    'event planner',
    'events',
    'wedding planner',
    'conference organiser',
  ]),
  c('event-venues', 'Event Centres & Venues', 'Hospitality & Leisure', [
    'event hall',
    'event centre',
    'venue',
    'banquet hall',
  ]),
  c('entertainment', 'Entertainment & Nightlife', 'Hospitality & Leisure', [
    'lounge',
    'club',
    'cinema',
    'gaming centre',
    'nightlife',
  ]),
  c('sports-fitness', 'Sports & Fitness', 'Hospitality & Leisure', [
    'gym',
    'fitness centre',
    'sports club',
    'football academy',
  ]),

  // Health
  c('hospitals-clinics', 'Hospitals & Clinics', 'Health', [
    'hospital',
    'clinic',
    'medical centre',
    'health centre',
    'specialist hospital',
  ]),
  c('dental', 'Dental Clinics', 'Health', ['dentist', 'dental clinic', 'orthodontist']),
  c('diagnostics-labs', 'Diagnostics & Laboratories', 'Health', [
    'laboratory',
    'diagnostic centre',
    'medical lab',
    'imaging',
    'scan centre',
  ]),
  c('medical-supplies', 'Medical Equipment & Supplies', 'Health', [
    'medical equipment',
    'hospital supplies',
    'surgical supplies',
    'medical devices',
  ]),
  c('eye-care', 'Eye Care & Optical', 'Health', ['optician', 'optometrist', 'eye clinic', 'eyewear']),
  c('wellness-spa', 'Wellness & Spa', 'Health', ['spa', 'massage', 'wellness centre', 'physiotherapy']),
  c('veterinary', 'Veterinary Services', 'Health', [
    'vet',
    'veterinary clinic',
    'animal health',
    'pet clinic',
  ]),

  // Education
  c('schools', 'Schools (Primary & Secondary)', 'Education', [
    'school',
    'nursery school',
    'primary school',
    'secondary school',
    'college',
    'academy',
  ]),
  c('higher-education', 'Universities & Polytechnics', 'Education', [
    'university',
    'polytechnic',
    'college of education',
    'tertiary institution',
  ]),
  c('training-vocational', 'Training & Vocational Centres', 'Education', [
    'training centre',
    'vocational',
    'skills acquisition',
    'professional training',
    'bootcamp',
  ]),
  c('edtech', 'EdTech & E-learning', 'Education', [
    'e-learning',
    'online courses',
    'education technology',
    'lms',
  ]),
  c('tutoring', 'Tutoring & Exam Prep', 'Education', [
    'tutorial centre',
    'lesson teacher',
    'exam prep',
    'jamb',
    'waec',
    'coaching',
  ]),

  // Finance & Insurance
  c('banking', 'Banks', 'Finance & Insurance', ['bank', 'commercial bank', 'merchant bank']),
  c('microfinance', 'Microfinance & Cooperatives', 'Finance & Insurance', [
    'microfinance bank',
    'mfb',
    'cooperative society',
    'savings group',
    'sacco',
    'susu',
  ]),
  c('fintech', 'Fintech & Payments', 'Finance & Insurance', [
    'payments',
    'mobile money',
    'digital bank',
    'payment gateway',
    'pos agent',
  ]),
  c('insurance', 'Insurance', 'Finance & Insurance', [
    'insurer',
    'insurance broker',
    'underwriter',
    'assurance',
    'takaful',
  ]),
  c('investment-asset-management', 'Investment & Asset Management', 'Finance & Insurance', [
    'asset management',
    'stockbroker',
    'investment bank',
    'fund manager',
    'pension fund administrator',
  ]),
  c('accounting', 'Accounting & Audit', 'Finance & Insurance', [
    'accountant',
    'audit firm',
    'bookkeeping',
    'chartered accountants',
    'tax consultant',
  ]),
  c('lending', 'Loans & Credit', 'Finance & Insurance', [
    'loan company',
    'lender',
    'credit',
    'money lender',
    'asset finance',
  ]),
  c('bureau-de-change', 'Bureau de Change & Remittance', 'Finance & Insurance', [
    'bdc',
    'forex',
    'remittance',
    'money transfer',
  ]),

  // Professional Services
  c('legal', 'Law Firms', 'Professional Services', [
    'lawyer',
    'law firm',
    'solicitor',
    'barrister',
    'legal practitioner',
    'attorney',
  ]),
  c('consulting', 'Management Consulting', 'Professional Services', [
    'consultant',
    'consultancy',
    'business advisory',
    'strategy',
  ]),
  c('hr-recruitment', 'HR & Recruitment', 'Professional Services', [
    'recruitment agency',
    'staffing',
    'headhunter',
    'outsourcing',
    'hr consulting',
  ]),
  c('marketing-advertising', 'Marketing & Advertising Agencies', 'Professional Services', [
    'advertising agency',
    'digital marketing',
    'marketing agency',
    'ad agency',
    'branding agency',
  ]),
  c('public-relations', 'Public Relations', 'Professional Services', [
    'pr agency',
    'communications agency',
    'media relations',
  ]),
  c('security-services', 'Security Services', 'Professional Services', [
    'security company',
    'guards',
    'cctv installation',
    'private security',
  ]),
  c('engineering-services', 'Engineering Services', 'Professional Services', [
    'engineering firm',
    'mechanical engineering',
    'electrical engineering',
    'epc',
  ]),
  c('business-services', 'Business Support Services', 'Professional Services', [
    'business centre',
    'virtual office',
    'company registration',
    'secretarial services',
    'translation',
  ]),
  c('surveying-valuation', 'Surveying & Valuation', 'Professional Services', [
    'surveyor',
    'estate surveyor',
    'valuer',
    'land surveyor',
    'quantity surveyor',
  ]),

  // Technology & Telecoms
  c('software-it', 'Software & IT Services', 'Technology & Telecoms', [
    'software',
    'it services',
    'it company',
    'web development',
    'app development',
    'tech company',
  ]),
  c('telecoms', 'Telecommunications', 'Technology & Telecoms', [
    'telecom',
    'mobile network',
    'telco',
    'isp',
    'internet service provider',
  ]),
  c('computer-hardware', 'Computers & Hardware', 'Technology & Telecoms', [
    'computer sales',
    'laptops',
    'networking equipment',
    'computer repairs',
  ]),
  c('data-centres-cloud', 'Data Centres & Cloud', 'Technology & Telecoms', [
    'data centre',
    'cloud hosting',
    'web hosting',
    'colocation',
  ]),
  c('cybersecurity', 'Cybersecurity', 'Technology & Telecoms', [
    'information security',
    'infosec',
    'penetration testing',
    'cyber security',
  ]),

  // Media & Creative
  c('media-broadcasting', 'Media & Broadcasting', 'Media & Creative', [
    'radio station',
    'tv station',
    'broadcaster',
    'newspaper',
    'magazine',
  ]),
  c('film-music', 'Film & Music Production', 'Media & Creative', [
    'nollywood',
    'film production',
    'record label',
    'music studio',
    'studio',
  ]),
  c('photography-video', 'Photography & Videography', 'Media & Creative', [
    'photographer',
    'photo studio',
    'videographer',
    'drone photography',
  ]),
  c('design-creative', 'Graphic Design & Creative Studios', 'Media & Creative', [
    'graphic designer',
    'creative agency',
    'design studio',
    'animation',
  ]),
  c('arts-crafts', 'Arts & Crafts', 'Media & Creative', [
    'art gallery',
    'crafts',
    'beadwork',
    'sculpture',
    'artisan',
  ]),

  // Personal Services
  c('fashion-design', 'Fashion Design & Tailoring', 'Personal Services', [
    'fashion designer',
    'tailor',
    'seamstress',
    'bespoke',
    'couture',
    'clothing brand',
  ]),
  c('beauty-salons', 'Beauty Salons & Barbers', 'Personal Services', [
    'salon',
    'hair salon',
    'barber',
    'barbershop',
    'nail bar',
    'makeup artist',
  ]),
  c('cosmetics-retail', 'Cosmetics & Beauty Products', 'Personal Services', [
    'cosmetics',
    'skincare',
    'beauty shop',
    'perfumes',
    'hair products',
  ]),
  c('laundry', 'Laundry & Dry Cleaning', 'Personal Services', ['laundry', 'dry cleaner', 'laundromat']),
  c('domestic-services', 'Domestic & Household Services', 'Personal Services', [
    'home services',
    'domestic staff',
    'nanny agency',
    'home repairs',
  ]),
  c('religious-organisations', 'Churches & Religious Organisations', 'Personal Services', [
    'church',
    'mosque',
    'ministry',
    'faith-based organisation',
  ]),

  // Automotive
  c('auto-dealers', 'Car Dealers', 'Automotive', [
    'car dealer',
    'car sales',
    'motor dealer',
    'used cars',
    'tokunbo cars',
  ]),
  c('auto-repair', 'Auto Repair & Mechanics', 'Automotive', [
    'mechanic',
    'auto repair',
    'garage',
    'panel beater',
    'vulcaniser',
    'car service',
  ]),
  c('auto-parts', 'Auto Parts & Accessories', 'Automotive', [
    'spare parts',
    'auto parts',
    'tyres',
    'car accessories',
    'batteries',
  ]),
  c('car-rental', 'Car Rental', 'Automotive', [
    'car rental',
    'car hire',
    'vehicle leasing',
    'chauffeur services',
  ]),

  // Public Sector & Non-profit
  c('ngo-nonprofit', 'NGOs & Non-profits', 'Public Sector & Non-profit', [
    'ngo',
    'non-profit',
    'charity',
    'foundation',
    'development organisation',
  ]),
  c('government-agencies', 'Government Agencies', 'Public Sector & Non-profit', [
    'ministry',
    'government agency',
    'parastatal',
    'local government',
  ]),
  c('associations', 'Trade Associations & Chambers', 'Public Sector & Non-profit', [
    'association',
    'chamber of commerce',
    'trade union',
    'professional body',
  ]),
] as const satisfies readonly BusinessCategory[];

export type CategorySlug = (typeof BUSINESS_CATEGORIES)[number]['slug'];

export const CATEGORY_SLUGS = BUSINESS_CATEGORIES.map((category) => category.slug) as [
  CategorySlug,
  ...CategorySlug[],
];

const bySlug = new Map<string, BusinessCategory>(
  BUSINESS_CATEGORIES.map((category) => [category.slug, category]),
);

export function categoryName(slug: string): string {
  return bySlug.get(slug)?.name ?? slug;
}

/**
 * Categories whose slug, name or a synonym matches a free-text term (case-insensitive): an exact synonym
 * or name, or a term of 4+ letters found inside one. Used by keyword search and the CSV importer.
 */
export function categoriesMatching(term: string): CategorySlug[] {
  const needle = term.trim().toLowerCase();
  if (needle.length < 3) return [];
  const matches: CategorySlug[] = [];
  for (const category of BUSINESS_CATEGORIES) {
    const words = [category.slug.replaceAll('-', ' '), category.name.toLowerCase(), ...category.synonyms];
    const hit = words.some(
      (word) => word === needle || (needle.length >= 4 && (word.includes(needle) || needle === `${word}s`)),
    );
    if (hit) matches.push(category.slug);
  }
  return matches;
}
