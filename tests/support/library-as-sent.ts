import { renderTemplate } from '@server/features/personalization/merge-tags';
import { mergeScope, type PersonalizeContact } from '@server/features/personalization/personalize';
import { flattenSpintax } from '@server/features/personalization/spintax';
import { composeMessageAsSent } from '@server/features/sending/html-as-sent';
import type { PixelPlacement } from '@server/features/sending/message-content';
import { LIBRARY_TEMPLATES } from '@server/seed/templates/index';
import type { BodyFormat } from '@shared/sending';

/*
 * The library's email templates composed exactly as a cold campaign sends them (composeMessageAsSent: the
 * outbox's prepareQueuedBody and the dispatcher's composeOutgoing), for one sample sender and contact.
 * scripts/record-spam-scores.ts scores these with SpamAssassin; spam-parity.test.ts with our rules;
 * bench/template-spam.bench.ts measures the library's figures.
 */

export const COMPOSED_WITH = {
  trackingBaseUrl: 'https://app.tambari.ng',
  trackClicks: true,
  account: {
    fromName: 'Tunde Bello',
    fromEmail: 'tunde@bellotrading.ng',
    company: 'Bello Trading',
    postalAddress: '12 Allen Avenue, Ikeja, Lagos',
  },
  contact: {
    email: 'amaka@kanofoods.ng',
    firstName: 'Amaka',
    lastName: 'Okonkwo',
    company: 'Kano Foods',
    city: 'Lagos',
    countryCode: 'NG',
    fields: {},
  } satisfies PersonalizeContact,
};

/** As long as a real outbox token. */
const TOKEN = 'AbCdEfGhIjKlMnOpQrStUv';

export const LIBRARY_EMAILS = LIBRARY_TEMPLATES.filter((t) => t.kind === 'email');

export function composeLibraryEmail(
  template: (typeof LIBRARY_TEMPLATES)[number],
  options: { trackOpens: boolean; pixel?: PixelPlacement; bodyFormat?: BodyFormat },
) {
  const w = COMPOSED_WITH;
  const scope = mergeScope(w.contact, {
    fromName: w.account.fromName,
    fromEmail: w.account.fromEmail,
    company: w.account.company,
  });
  return composeMessageAsSent({
    subject: renderTemplate(flattenSpintax(template.subject), scope, 'text').output,
    html: renderTemplate(flattenSpintax(template.bodyHtml), scope, 'html').output,
    trackOpens: options.trackOpens,
    trackClicks: w.trackClicks,
    trackingBaseUrl: w.trackingBaseUrl,
    bodyFormat: options.bodyFormat,
    pixel: options.pixel,
    account: w.account,
    to: { name: 'Amaka Okonkwo', email: w.contact.email },
    token: TOKEN,
  });
}
