import type { ImportField } from '../../../shared/imports';

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
  ],
  first_name: ['first name', 'firstname', 'first', 'given name', 'forename', 'fname', 'prenom', 'nombre'],
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
  ],
  job_title: ['job title', 'title', 'position', 'role', 'designation', 'occupation', 'job', 'job role'],
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
  ],
  address: ['address', 'street', 'street address', 'address line 1', 'address 1', 'adresse', 'direccion'],
  city: ['city', 'town', 'lga', 'municipality', 'locality', 'ville', 'ciudad'],
  country: ['country', 'country code', 'nation', 'country name', 'pays', 'pais'],
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
