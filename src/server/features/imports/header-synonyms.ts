import type { ImportField } from '@shared/imports';

/** Column headers (normalised: lower-case ASCII words) that name each field, in the languages we meet. */
const HEADER_SYNONYMS: Record<ImportField, string[]> = {
  email: [
    'email',
    'e mail',
    'email address',
    'e mail address',
    'mail',
    'email id',
    'emails',
    'courriel',
    'correo',
    'correo electronico',
    'work email',
    'business email',
    'contact email',
    'primary email',
    'email 1',
    'email1',
    // Outlook, Google Contacts ("E-mail 1 - Value"), Mailchimp
    'e mail 1 value',
    'email 1 value',
    'adresse e mail',
    'adresse email',
    'e mail adresse',
  ],
  first_name: [
    'first name',
    'firstname',
    'first',
    'given name',
    'forename',
    'fname',
    'prenom',
    'nombre',
    'vorname',
  ],
  last_name: [
    'last name',
    'lastname',
    'last',
    'surname',
    'family name',
    'lname',
    'nom',
    'apellido',
    'apellidos',
    'nachname',
  ],
  full_name: [
    'name',
    'full name',
    'fullname',
    'contact name',
    'contact',
    'contact person',
    'person',
    'customer name',
    'your name',
    'nom complet',
  ],
  company: [
    'company',
    'company name',
    'organisation',
    'organization',
    'organisation name',
    'organization name',
    'business',
    'business name',
    'employer',
    'firm',
    'account name',
    'org',
    'societe',
    'entreprise',
    'empresa',
    'organization 1 name',
    'organisation 1 name',
    'firma',
    'unternehmen',
  ],
  job_title: [
    'job title',
    'title',
    'position',
    'role',
    'designation',
    'occupation',
    'job',
    'job role',
    'organization title',
    'organisation title',
    'organization 1 title',
    'fonction',
    'poste',
    'cargo',
    'funktion',
  ],
  phone: [
    'phone',
    'phone number',
    'telephone',
    'tel',
    'mobile',
    'mobile number',
    'mobile phone',
    'cell',
    'cell phone',
    'whatsapp',
    'gsm',
    'phone no',
    'telephone number',
    'telefono',
    'phone 1 value',
    'business phone',
    'primary phone',
    'work phone',
    'first phone',
    'work direct phone',
    'telefon',
  ],
  website: [
    'website',
    'web site',
    'url',
    'web',
    'site',
    'homepage',
    'domain',
    'company website',
    'website url',
    'site web',
    'website 1 value',
    'web page',
    'webpage',
  ],
  address: ['address', 'street', 'street address', 'address line 1', 'address 1', 'adresse', 'direccion'],
  city: [
    'city',
    'town',
    'lga',
    'municipality',
    'locality',
    'ville',
    'ciudad',
    'business city',
    'address 1 city',
    'mailing city',
    'stadt',
    'ort',
  ],
  country: [
    'country',
    'country code',
    'nation',
    'country name',
    'pays',
    'pais',
    'country region',
    'business country region',
    'address 1 country',
    'mailing country',
    'cc',
    'land',
  ],
  category: ['category', 'industry', 'sector', 'business category', 'business type'],
  reason: ['reason', 'suppression reason', 'unsubscribe reason'],
};

const HEADER_TO_FIELD = new Map<string, ImportField>();
for (const [field, names] of Object.entries(HEADER_SYNONYMS) as [ImportField, string[]][]) {
  for (const name of names) HEADER_TO_FIELD.set(name, field);
}

export function normaliseHeader(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export function fieldForHeader(header: string): ImportField | null {
  return HEADER_TO_FIELD.get(normaliseHeader(header)) ?? null;
}

/**
 * Columns that CRMs and address books add for their own bookkeeping (ids, owners, timestamps, opt-in
 * records, labels of other columns), and our own export's `source` and `added_at`: suggested as
 * "ignore" rather than as custom fields, which a list has only 20 of. The user can still map them.
 */
const BOOKKEEPING_HEADERS = new Set([
  // our own export (lists/list-export.ts)
  'source',
  'added at',
  // Mailchimp
  'member rating',
  'optin time',
  'optin ip',
  'confirm time',
  'confirm ip',
  'latitude',
  'longitude',
  'gmtoff',
  'dstoff',
  'timezone',
  'last changed',
  'leid',
  'euid',
  // Outlook
  'e mail type',
  'e mail display name',
  'e mail 2 type',
  'e mail 2 display name',
  'e mail 3 type',
  'e mail 3 display name',
  'priority',
  'private',
  'sensitivity',
  'internet free busy',
  'directory server',
  // Google Contacts
  'photo',
  'file as',
  'phonetic first name',
  'phonetic middle name',
  'phonetic last name',
  'labels',
  // HubSpot, Zoho, Apollo
  'record id',
  'contact owner',
  'account owner',
  'create date',
  'created time',
  'modified time',
  'created by',
  'modified by',
  'last activity date',
  'last activity time',
  'associated company ids',
  'email opt out',
  'email status',
  'email sent',
  'email open',
  'email bounced',
  'replied',
  'demoed',
  'apollo contact id',
  'apollo account id',
  'company name for emails',
]);

/** "E-mail 1 - Label", "Phone 2 - Type": the kind of another column's value, not a value. */
const LABEL_OF_ANOTHER_COLUMN =
  /^(e mail|email|phone|address|website|organization|relation|event|im) \d+ (label|type)$/;

export function isBookkeepingHeader(header: string): boolean {
  const name = normaliseHeader(header);
  return BOOKKEEPING_HEADERS.has(name) || LABEL_OF_ANOTHER_COLUMN.test(name);
}
