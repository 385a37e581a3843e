import { renderNewsletterHtml } from '@shared/newsletter-render';
import { type NewsletterBlock, newsletterBlocksSchema } from '@shared/newsletters';
import { editMarker } from '@shared/placeholders';
import type { SeedTemplate } from './template-helpers';

/*
 * Newsletter layouts: block documents in the newsletter editor's format (src/shared/newsletters.ts).
 * The stored bodyHtml is the renderer's output, so previews match what the editor will produce.
 * What only the sender can say (their news, figures, dates, links to their own pages) is an edit-me
 * marker, `[[edit: …]]`: the pre-send check refuses to send one until it is replaced.
 */

type BlockInput = Record<string, unknown> & { type: string };

let counter = 0;
function withIds(blocks: BlockInput[], prefix: string): BlockInput[] {
  counter = 0;
  return blocks.map((block) => {
    counter += 1;
    const id = `${prefix}-${counter}`;
    if (block.type === 'columns') {
      const columns = (block.columns as BlockInput[][]).map((col, c) =>
        col.map((inner, n) => ({ ...inner, id: `${id}-c${c + 1}-${n + 1}` })),
      );
      return { ...block, id, columns };
    }
    return { ...block, id };
  });
}

// The send adds the sender account's postal address and the unsubscribe link under the footer.
const FOOTER = {
  type: 'footer',
  text: '{{ senderName }}\n\nYou are receiving this because you are a customer or asked to hear from us.',
};
const SOCIAL = {
  type: 'social',
  links: [
    { network: 'website', url: editMarker('your website') },
    { network: 'linkedin', url: editMarker('your LinkedIn page') },
  ],
};

function layout(
  slug: string,
  name: string,
  description: string,
  subject: string,
  blocks: BlockInput[],
  tags: string[],
): SeedTemplate {
  // Parsing fills every block's defaults and fails the start-up loudly if a layout drifts from the format.
  const parsed: NewsletterBlock[] = newsletterBlocksSchema.parse(withIds(blocks, slug));
  return {
    slug,
    kind: 'newsletter',
    category: 'newsletter-layout',
    name,
    description,
    subject,
    bodyHtml: renderNewsletterHtml({ subject, preheader: '', blocks: parsed }),
    blocks: parsed,
    tags,
  };
}

export const NEWSLETTER_LAYOUT_TEMPLATES: SeedTemplate[] = [
  layout(
    'newsletter-monthly-update',
    'Monthly company update',
    'Headline story, two short updates side by side, a call to action and your footer.',
    'What’s new this month at our company',
    [
      { type: 'heading', text: 'Our month in review', level: 1 },
      {
        type: 'text',
        text: 'Hi {{ firstName | default: "there" }},\n\nHere is a short round-up of what happened this month — new work, new people and one thing we would love your help with.',
      },
      { type: 'divider' },
      {
        type: 'columns',
        columns: [
          [
            { type: 'heading', text: 'New clients', level: 3 },
            {
              type: 'text',
              text: editMarker('your news, e.g. the clients you welcomed this month'),
            },
          ],
          [
            { type: 'heading', text: 'New faces', level: 3 },
            {
              type: 'text',
              text: editMarker('who joined your team'),
            },
          ],
        ],
      },
      {
        type: 'text',
        text: 'Know a business that could use our help? An introduction is the best compliment you can give us.',
      },
      { type: 'button', label: 'Refer a business', href: editMarker('link to your referral page') },
      SOCIAL,
      FOOTER,
    ],
    ['monthly', 'company news', 'update'],
  ),
  layout(
    'newsletter-product-announcement',
    'Product announcement',
    'Announce a new product or feature with benefits and one clear button.',
    'Introducing something new for your business',
    [
      { type: 'heading', text: 'Introducing our newest product', level: 1, align: 'center' },
      {
        type: 'text',
        text: 'Hi {{ firstName | default: "there" }},\n\nWe have been listening to customers like {{ company | default: "you" }}, and today we are launching something built around what you told us.',
        align: 'center',
      },
      { type: 'heading', text: 'What it does for you', level: 2 },
      {
        type: 'text',
        text: `**Saves time:** ${editMarker('how')}\n\n**Saves money:** ${editMarker('how, e.g. one clear monthly price')}\n\n**Works where you are:** ${editMarker('how')}`,
      },
      { type: 'button', label: 'See how it works', href: editMarker('link to the product page') },
      { type: 'divider' },
      {
        type: 'text',
        text: 'Questions? Just reply to this email — a real person will answer.',
        color: '#6b7280',
      },
      FOOTER,
    ],
    ['product', 'launch', 'announcement'],
  ),
  layout(
    'newsletter-tips-digest',
    'Tips and insights digest',
    'A value-first newsletter: three practical tips and a featured resource.',
    '3 practical tips to grow your sales this month',
    [
      { type: 'heading', text: 'Three tips for this month', level: 1 },
      {
        type: 'text',
        text: 'Hi {{ firstName | default: "there" }},\n\nEvery month we share a few practical ideas from the businesses we work with. Here are this month’s three.',
      },
      { type: 'heading', text: '1. Follow up faster', level: 3 },
      {
        type: 'text',
        text: 'Enquiries answered within an hour are far more likely to become customers than those answered the next day.',
      },
      { type: 'heading', text: '2. Ask for referrals', level: 3 },
      {
        type: 'text',
        text: 'Happy customers rarely refer others unless asked. Ask at the moment they thank you.',
      },
      { type: 'heading', text: '3. Stay in touch', level: 3 },
      {
        type: 'text',
        text: 'A short monthly email keeps you in mind when the customer is ready to buy again.',
      },
      { type: 'divider' },
      { type: 'button', label: 'Read the full guide', href: editMarker('link to the full guide') },
      SOCIAL,
      FOOTER,
    ],
    ['tips', 'education', 'digest'],
  ),
  layout(
    'newsletter-event-announcement',
    'Event announcement',
    'Promote an event with the key details and a registration button.',
    'You’re invited: join us in person',
    [
      { type: 'heading', text: 'You’re invited', level: 1, align: 'center' },
      {
        type: 'text',
        text: 'Join business leaders from across the region for an afternoon of practical talks, good food and new connections.',
        align: 'center',
      },
      {
        type: 'columns',
        columns: [
          [
            { type: 'heading', text: 'When', level: 3 },
            { type: 'text', text: editMarker('date, time and time zone') },
          ],
          [
            { type: 'heading', text: 'Where', level: 3 },
            { type: 'text', text: editMarker('venue and city') },
          ],
        ],
      },
      { type: 'button', label: 'Reserve my seat', href: editMarker('link to your registration page') },
      {
        type: 'text',
        text: 'Seats are limited, so please register early. Entry is free for our customers.',
        color: '#6b7280',
      },
      FOOTER,
    ],
    ['event', 'invitation', 'rsvp'],
  ),
  layout(
    'newsletter-customer-spotlight',
    'Customer spotlight',
    'Tell one customer’s story, add a quote and invite readers to share theirs.',
    'Customer spotlight: how one business grew',
    [
      { type: 'heading', text: 'Customer spotlight', level: 1 },
      {
        type: 'text',
        text: `Every month we feature a business we are proud to work with. This month: ${editMarker('the customer, with their permission, and their result')}`,
      },
      { type: 'heading', text: 'What they did', level: 2 },
      {
        type: 'text',
        text: editMarker('what they did, in their own words'),
      },
      {
        type: 'text',
        text: `*“${editMarker('a quote the customer approved')}”*`,
        align: 'center',
        color: '#0f766e',
      },
      { type: 'divider' },
      {
        type: 'text',
        text: 'Have a story to share? We would love to feature {{ company | default: "your business" }} next.',
      },
      {
        type: 'button',
        label: 'Share your story',
        href: editMarker('your email address, as mailto:you@yourcompany'),
      },
      FOOTER,
    ],
    ['case study', 'customer story'],
  ),
  layout(
    'newsletter-holiday-greetings',
    'Holiday greetings and hours',
    'A festive note with your holiday opening hours and a thank-you offer.',
    'Season’s greetings and our holiday hours',
    [
      { type: 'heading', text: 'Season’s greetings', level: 1, align: 'center', color: '#b91c1c' },
      {
        type: 'text',
        text: 'Dear {{ firstName | default: "friend" }},\n\nThank you for a wonderful year. From all of us, we wish you a joyful holiday season and a prosperous new year.',
        align: 'center',
      },
      { type: 'divider' },
      { type: 'heading', text: 'Our holiday hours', level: 3 },
      {
        type: 'text',
        text: editMarker('your holiday opening hours'),
      },
      {
        type: 'button',
        label: 'Claim your thank-you discount',
        href: editMarker('link to your offer'),
        background: '#15803d',
      },
      SOCIAL,
      FOOTER,
    ],
    ['christmas', 'holiday', 'seasonal'],
  ),
];
