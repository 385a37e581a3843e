import { z } from 'zod';
import {
  BULK_IDS_MAX,
  CUSTOM_FIELD_NAME,
  CUSTOM_FIELDS_MAX,
  countryCode,
  cursorSchema,
  emailSchema,
  LIST_CONTACT_FIELDS,
  LIST_CONTACT_SOURCES,
  LIST_PAGE_SIZE_MAX,
  optionalText,
  pageSize,
  partialFields,
} from './contacts';

/* A user's contact lists and their members: list and member schemas, paging, the recycle bin. */

const customFieldName = z
  .string()
  .trim()
  .regex(CUSTOM_FIELD_NAME, 'Use lower-case letters, digits and _ (start with a letter)')
  .refine(
    (name) => !(LIST_CONTACT_FIELDS as readonly string[]).includes(name),
    'This name is a built-in field',
  );
const customFieldNames = z
  .array(customFieldName)
  .max(CUSTOM_FIELDS_MAX)
  .refine((names) => new Set(names).size === names.length, 'Custom field names must be different');

export const contactListSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  customFields: z.array(z.string()),
  contactCount: z.number().int(),
  /** Set when a super admin froze the list (it looks bought or scraped): why, in their words. */
  frozen: z.boolean(),
  frozenReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactList = z.infer<typeof contactListSchema>;
export const contactListsSchema = z.object({ lists: z.array(contactListSchema) });

export const deletedContactListSchema = contactListSchema.extend({
  deletedAt: z.string(),
  /** When the purge job deletes it for good. */
  purgeAt: z.string(),
});
export const recycleBinSchema = z.object({ lists: z.array(deletedContactListSchema) });

export const createListSchema = z.object({
  name: z.string().trim().min(1, 'Give the list a name').max(100),
  description: optionalText(500),
  customFields: customFieldNames.default([]),
});
export const updateListSchema = z
  .object({
    name: z.string().trim().min(1, 'Give the list a name').max(100).optional(),
    description: optionalText(500).optional(),
    customFields: customFieldNames.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Nothing to change');

export const listContactSchema = z.object({
  id: z.number().int(),
  listId: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  company: z.string().nullable(),
  jobTitle: z.string().nullable(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  city: z.string().nullable(),
  countryCode: z.string().nullable(),
  customFields: z.record(z.string(), z.string()),
  roleAddress: z.boolean(),
  source: z.enum(LIST_CONTACT_SOURCES),
  directoryContactId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ListContact = z.infer<typeof listContactSchema>;

export const listContactsQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  cursor: cursorSchema,
  limit: pageSize(LIST_PAGE_SIZE_MAX, 50),
});
export const listContactsPageSchema = z.object({
  items: z.array(listContactSchema),
  nextCursor: z.string().nullable(),
});

const listContactFields = {
  firstName: optionalText(100),
  lastName: optionalText(100),
  company: optionalText(200),
  jobTitle: optionalText(150),
  phone: optionalText(50),
  website: optionalText(300),
  city: optionalText(100),
  countryCode: countryCode.nullish().transform((value) => value ?? null),
  customFields: z.record(z.string(), z.string().max(1000)).optional(),
};
export const createListContactSchema = z.object({ email: emailSchema, ...listContactFields });
export const updateListContactSchema = z
  .object({ email: emailSchema.optional(), ...partialFields(listContactFields) })
  .refine((body) => Object.keys(body).length > 0, 'Nothing to change');
export const listContactParamsSchema = z.object({
  id: z.uuid(),
  contactId: z.coerce.number().int().positive(),
});
export const removeListContactsSchema = z.object({
  ids: z.array(z.number().int().positive()).min(1).max(BULK_IDS_MAX),
});
export const removedSchema = z.object({ removed: z.number().int() });
