import { readFileSync } from 'node:fs';
import type { InboxCategory } from '@shared/inbox';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { categorizeInbound } from './categorize-inbound';
import { classifyInbound, freshText } from './classify-inbound';

/*
 * The inbox's category rules on a corpus of real-shaped mail: the fixtures of the inbound tests (mail
 * as Gmail, Outlook, Exchange, Postfix, Exim and qmail write it) and messages written here the way
 * people and mail systems answer in English, French, Pidgin, Swahili, Portuguese and Arabic. Each goes
 * through the same path as a polled mailbox: mailparser, classifyInbound, then the category.
 */

async function categoryOf(raw: string | Buffer): Promise<InboxCategory | null> {
  const parsed = await simpleParser(raw);
  const classification = classifyInbound({ parsed, raw, receivedAt: new Date('2026-11-24T12:00:00Z') });
  return categorizeInbound({
    kind: classification.kind,
    subject: parsed.subject ?? '',
    text: freshText(parsed.text ?? ''),
  });
}

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../tests/fixtures/inbound/${name}`, import.meta.url));

let counter = 0;

/** A plain-text message answering one of ours, as a mail client writes it. */
function mail(options: {
  subject: string;
  body: string;
  from?: string;
  headers?: string[];
  references?: boolean;
}): string {
  counter++;
  const lines = [
    `From: ${options.from ?? 'Contact <contact@client.test>'}`,
    'To: Amina Bello <amina@kano-logistics.test>',
    `Subject: ${options.subject}`,
    'Date: Tue, 24 Nov 2026 12:48:19 +0100',
    `Message-ID: <corpus-${counter}@client.test>`,
    ...(options.references === false
      ? []
      : ['In-Reply-To: <orig-corpus@kano-logistics.test>', 'References: <orig-corpus@kano-logistics.test>']),
    ...(options.headers ?? []),
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    options.body,
    '',
    'On Mon, 23 Nov 2026 at 10:14, Amina Bello <amina@kano-logistics.test> wrote:',
    '> Hi, do you still move goods between Kano and Lagos every week?',
    '',
  ];
  return lines.join('\r\n');
}

/** An RFC 3464 delivery status notification, its human part in the reporting system's language. */
function dsn(options: { human: string; status: string; action?: string; recipient?: string; from?: string }) {
  counter++;
  const recipient = options.recipient ?? `nobody${counter}@client.test`;
  return [
    `From: ${options.from ?? 'Mail Delivery System <MAILER-DAEMON@mx.client.test>'}`,
    'To: amina@kano-logistics.test',
    'Subject: Undelivered Mail Returned to Sender',
    'Date: Tue, 24 Nov 2026 12:48:19 +0100',
    `Message-ID: <dsn-${counter}@mx.client.test>`,
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    options.human,
    '',
    '--b1',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.client.test',
    '',
    `Final-Recipient: rfc822; ${recipient}`,
    `Action: ${options.action ?? 'failed'}`,
    `Status: ${options.status}`,
    `Diagnostic-Code: smtp; ${options.status.startsWith('5') ? '550' : '452'} ${options.status} mailbox problem`,
    '',
    '--b1',
    'Content-Type: text/rfc822-headers',
    '',
    'From: Amina Bello <amina@kano-logistics.test>',
    `To: ${recipient}`,
    'Subject: Quick question about your deliveries',
    'Message-ID: <orig-corpus@kano-logistics.test>',
    '',
    '--b1--',
    '',
  ].join('\r\n');
}

const OOO_HEADERS = ['Auto-Submitted: auto-replied', 'X-Auto-Response-Suppress: All'];

const CORPUS: [string, () => string | Buffer, InboxCategory | null][] = [
  // The inbound fixtures.
  ['Gmail DSN, 5.1.1', () => fixture('gmail-dsn-hard.eml'), 'bounce'],
  ['Exchange NDR', () => fixture('exchange-ndr-hard.eml'), 'bounce'],
  ['Postfix DSN, mailbox full', () => fixture('postfix-dsn-mailbox-full.eml'), 'bounce'],
  ['Postfix DSN, delayed', () => fixture('postfix-dsn-delayed.eml'), 'bounce'],
  ['Exim bounce (text)', () => fixture('exim-bounce.eml'), 'bounce'],
  ['qmail bounce (text)', () => fixture('qmail-bounce.eml'), 'bounce'],
  ['ARF complaint', () => fixture('arf-complaint.eml'), 'unsubscribe_request'],
  ['Outlook out of office', () => fixture('outlook-ooo.eml'), 'out_of_office'],
  ['Gmail vacation responder', () => fixture('gmail-vacation.eml'), 'out_of_office'],
  ['French out of office', () => fixture('french-ooo.eml'), 'out_of_office'],
  ['Out of office without a date', () => fixture('ooo-no-date.eml'), 'out_of_office'],
  ['Unsubscribe mailto', () => fixture('unsubscribe-mailto.eml'), 'unsubscribe_request'],
  ['Unsubscribe reply', () => fixture('unsubscribe-reply.eml'), 'unsubscribe_request'],
  ['Gmail reply asking for a call', () => fixture('human-reply.eml'), 'meeting_request'],
  ['Delivered DSN (success)', () => fixture('delivered-dsn.eml'), 'auto_reply'],

  // Delivery reports in other languages.
  [
    'French DSN',
    () =>
      dsn({
        human: "Votre message n'a pas pu être remis au destinataire suivant : adresse inconnue.",
        status: '5.1.1',
      }),
    'bounce',
  ],
  [
    'German DSN',
    () =>
      dsn({ human: 'Die Nachricht konnte nicht zugestellt werden. Empfänger unbekannt.', status: '5.1.1' }),
    'bounce',
  ],
  [
    'Portuguese DSN',
    () =>
      dsn({ human: 'Não foi possível entregar a sua mensagem. A caixa postal está cheia.', status: '4.2.2' }),
    'bounce',
  ],
  [
    'Spanish DSN, delayed',
    () =>
      dsn({
        human: 'Su mensaje aún no ha sido entregado. Seguiremos intentándolo.',
        status: '4.4.1',
        action: 'delayed',
      }),
    'bounce',
  ],
  [
    'Arabic DSN',
    () => dsn({ human: 'تعذر تسليم رسالتك إلى المستلم. العنوان غير موجود.', status: '5.1.1' }),
    'bounce',
  ],

  // Out of office in several languages.
  [
    'English OOO with headers',
    () =>
      mail({
        subject: 'Automatic reply: Quick question about your deliveries',
        body: 'I am out of the office until 30 November with limited access to email.',
        headers: OOO_HEADERS,
      }),
    'out_of_office',
  ],
  [
    'Pidgin OOO',
    () =>
      mail({
        subject: 'Auto: Quick question about your deliveries',
        body: 'I no dey office this week. I go come back on Monday, abeg call Kemi for anything urgent.',
        headers: ['Auto-Submitted: auto-replied'],
      }),
    'out_of_office',
  ],
  [
    'Swahili OOO',
    () =>
      mail({
        subject: 'Jibu la kiotomatiki: Quick question about your deliveries',
        body: 'Niko nje ya ofisi hadi tarehe 30 Novemba. Nitarudi Jumatatu.',
        headers: ['Auto-Submitted: auto-replied'],
      }),
    'out_of_office',
  ],
  [
    'Swahili OOO, subject only',
    () =>
      mail({
        subject: 'Nje ya ofisi',
        body: 'Niko likizo. Nitarudi tarehe 2 Desemba.',
        references: false,
      }),
    'out_of_office',
  ],
  [
    'Portuguese OOO',
    () =>
      mail({
        subject: 'Resposta automática: Quick question about your deliveries',
        body: 'Estou fora do escritório de férias. Retorno no dia 30 de novembro.',
        headers: OOO_HEADERS,
      }),
    'out_of_office',
  ],
  [
    'Portuguese OOO, no headers',
    () =>
      mail({
        subject: 'Ausente do escritório',
        body: 'Estarei ausente até 1 de dezembro, com acesso limitado ao e-mail.',
      }),
    'out_of_office',
  ],
  [
    'Arabic OOO',
    () =>
      mail({
        subject: 'رد تلقائي: Quick question about your deliveries',
        body: 'أنا خارج المكتب حاليا وسأعود يوم 30 نوفمبر.',
        headers: ['Auto-Submitted: auto-replied'],
      }),
    'out_of_office',
  ],
  [
    'Arabic OOO, subject only',
    () => mail({ subject: 'خارج المكتب', body: 'في إجازة حتى الأسبوع القادم.' }),
    'out_of_office',
  ],
  [
    'French OOO written inline',
    () =>
      mail({
        subject: 'Réponse automatique : Quick question about your deliveries',
        body: 'Je suis absente du bureau et serai de retour le 2 décembre.',
        headers: OOO_HEADERS,
      }),
    'out_of_office',
  ],

  // Automatic replies that are not absences.
  [
    'Ticket system acknowledgement',
    () =>
      mail({
        subject: '[Ticket #48213] We received your message',
        body: 'Thank you for contacting support. A member of our team will respond within 24 hours.',
        headers: ['Auto-Submitted: auto-generated', 'Precedence: bulk'],
      }),
    'auto_reply',
  ],
  [
    'Auto-responder acknowledgement',
    () =>
      mail({
        subject: 'Re: Quick question about your deliveries',
        body: 'This is an automated response to confirm we got your email.',
        headers: ['X-Autoreply: yes'],
      }),
    'auto_reply',
  ],

  // Unsubscribe requests.
  [
    'English unsubscribe',
    () => mail({ subject: 'Re: Quick question', body: 'Please remove me from your list.' }),
    'unsubscribe_request',
  ],
  [
    'Pidgin unsubscribe',
    () => mail({ subject: 'Re: Quick question', body: 'Abeg comot me' }),
    'unsubscribe_request',
  ],
  ['French unsubscribe', () => mail({ subject: 'Désabonnez-moi', body: 'Merci.' }), 'unsubscribe_request'],

  // People: what they say.
  [
    'English interested',
    () =>
      mail({ subject: 'Re: Quick question', body: 'Yes, we are interested. Please send the price list.' }),
    'interested',
  ],
  [
    'English meeting request',
    () =>
      mail({
        subject: 'Re: Quick question',
        body: 'Can we schedule a call on Thursday afternoon? My calendar is open after 2pm.',
      }),
    'meeting_request',
  ],
  [
    'English question',
    () =>
      mail({ subject: 'Re: Quick question', body: 'What are your rates for 20 tonnes from Kano to Lagos?' }),
    'question',
  ],
  [
    'English not now',
    () =>
      mail({
        subject: 'Re: Quick question',
        body: 'Not right now, our contract runs until March. Check back in the new year.',
      }),
    'not_now',
  ],
  [
    'English not interested',
    () => mail({ subject: 'Re: Quick question', body: 'No thanks, we already have a supplier.' }),
    'not_interested',
  ],
  ['French interested', () => fixture('french-reply.eml'), 'interested'],
  [
    'French meeting',
    () =>
      mail({
        subject: 'RE: Quick question',
        body: 'Bonjour, pouvons-nous fixer un rendez-vous la semaine prochaine ?',
      }),
    'meeting_request',
  ],
  [
    'French not interested',
    () => mail({ subject: 'RE: Quick question', body: 'Non merci, nous ne sommes pas intéressés.' }),
    'not_interested',
  ],
  [
    'French not now',
    () =>
      mail({
        subject: 'RE: Quick question',
        body: "Pas pour le moment. Recontactez-nous l'année prochaine.",
      }),
    'not_now',
  ],
  ['Pidgin reply asking to be called', () => fixture('pidgin-reply.eml'), 'meeting_request'],
  [
    'Pidgin interested',
    () => mail({ subject: 'Re: Quick question', body: 'I dey interested o. Send am make I see the price.' }),
    'interested',
  ],
  [
    'Pidgin not interested',
    () => mail({ subject: 'Re: Quick question', body: 'We no need am for now, thank you.' }),
    'not_interested',
  ],
  [
    'Swahili interested',
    () => mail({ subject: 'Re: Quick question', body: 'Nina nia. Tuma maelezo zaidi tafadhali.' }),
    'interested',
  ],
  [
    'Swahili meeting',
    () => mail({ subject: 'Re: Quick question', body: 'Tukutane Jumanne ofisini kwetu Nairobi.' }),
    'meeting_request',
  ],
  [
    'Swahili not interested',
    () => mail({ subject: 'Re: Quick question', body: 'Hapana asante, hatuhitaji huduma hii.' }),
    'not_interested',
  ],
  [
    'Portuguese interested',
    () =>
      mail({ subject: 'Re: Quick question', body: 'Olá, temos interesse. Mande mais detalhes, por favor.' }),
    'interested',
  ],
  [
    'Portuguese meeting',
    () => mail({ subject: 'Re: Quick question', body: 'Podemos agendar uma reunião na quinta-feira?' }),
    'meeting_request',
  ],
  [
    'Portuguese not now',
    () => mail({ subject: 'Re: Quick question', body: 'Agora não, talvez no próximo ano.' }),
    'not_now',
  ],
  [
    'Arabic interested',
    () => mail({ subject: 'Re: Quick question', body: 'نحن مهتمون، أرسل لي قائمة الأسعار.' }),
    'interested',
  ],
  [
    'Arabic question',
    () => mail({ subject: 'Re: Quick question', body: 'كم تكلفة الشحن إلى لاغوس؟' }),
    'question',
  ],
  [
    'Arabic not interested',
    () => mail({ subject: 'Re: Quick question', body: 'شكرا، لكننا غير مهتمين حاليا بهذا العرض' }),
    'not_interested',
  ],
  [
    'A reply that says nothing a rule knows',
    () => mail({ subject: 'Re: Quick question', body: 'Noted.' }),
    null,
  ],
  [
    'A reply quoting an out-of-office is still a person',
    () => fixture('reply-quoting-ooo.eml'),
    'interested',
  ],
];

describe('category rules on a corpus of real-shaped mail', () => {
  it('holds at least 40 messages, DSNs and out-of-office replies in several languages among them', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(40);
    expect(CORPUS.filter(([, , category]) => category === 'bounce').length).toBeGreaterThanOrEqual(8);
    expect(CORPUS.filter(([, , category]) => category === 'out_of_office').length).toBeGreaterThanOrEqual(8);
  });

  it.each(CORPUS)('%s', async (_name, raw, expected) => {
    expect(await categoryOf(raw())).toBe(expected);
  });
});
