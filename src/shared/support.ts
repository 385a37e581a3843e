import { z } from 'zod';

/** What a message on the public /contact page is about; it decides who reads it first. */
export const CONTACT_TOPICS = ['support', 'sales', 'partnerships', 'other'] as const;
export type ContactTopic = (typeof CONTACT_TOPICS)[number];
export const CONTACT_TOPIC_LABELS: Record<ContactTopic, string> = {
  support: 'Support',
  sales: 'Sales',
  partnerships: 'Partnerships',
  other: 'Something else',
};

export const CONTACT_MESSAGE_MAX = 5000;

export const CONTACT_MESSAGES = {
  sent: 'Thank you: your message has reached the Tambari team. We have emailed you a copy and will answer within one working day.',
  rateLimited: 'You have sent several messages in a short time. Please wait an hour, or email us directly.',
} as const;

export const contactMessageInputSchema = z.strictObject({
  name: z
    .string({ error: 'Tell us your name' })
    .trim()
    .min(1, 'Tell us your name')
    .max(120, 'Use at most 120 characters'),
  email: z
    .string({ error: 'Enter your email address' })
    .trim()
    .toLowerCase()
    .pipe(z.email('Enter a valid email address').max(254, 'Enter a valid email address')),
  topic: z.enum(CONTACT_TOPICS, { error: 'Choose what your message is about' }),
  message: z
    .string({ error: 'Write your message' })
    .trim()
    .min(10, 'Write at least 10 characters so we can help')
    .max(CONTACT_MESSAGE_MAX, `Use at most ${CONTACT_MESSAGE_MAX.toLocaleString('en-US')} characters`),
  /** A field people never see: robots fill it in, and their message is quietly dropped. */
  website: z.string().max(500).optional(),
});
export type ContactMessageInput = z.infer<typeof contactMessageInputSchema>;

export const contactMessageSentSchema = z.object({ message: z.string() });

export const CONTACT_MESSAGE_STATUSES = ['new', 'handled'] as const;

export const contactMessageSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  topic: z.enum(CONTACT_TOPICS),
  message: z.string(),
  status: z.enum(CONTACT_MESSAGE_STATUSES),
  /** The sender was signed in as this account. */
  userId: z.string().nullable(),
  createdAt: z.string(),
  handledAt: z.string().nullable(),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;

export const contactMessageListSchema = z.object({
  messages: z.array(contactMessageSchema),
  /** Messages not marked handled yet, of all time. */
  newCount: z.number().int(),
});
export type ContactMessageList = z.infer<typeof contactMessageListSchema>;

export const contactMessageListQuerySchema = z.object({
  status: z.enum(['new', 'handled', 'all']).default('new'),
});

export const contactMessageUpdateSchema = z.strictObject({ status: z.enum(CONTACT_MESSAGE_STATUSES) });
