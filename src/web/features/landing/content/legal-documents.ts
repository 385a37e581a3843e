/*
 * The text of the five public legal pages linked from the footer's Legal group: privacy, terms,
 * refunds, disclaimer and cookies. Every statement describes what the app actually does (cookies, storage,
 * payments, tracking, retention); keep it so when the product changes, and update `updated`.
 */

export type LegalPath = '/privacy' | '/terms' | '/refund-policy' | '/disclaimer' | '/cookie-policy';

export interface LegalSection {
  heading: string;
  /** Plain text paragraphs (no HTML, no markdown). */
  paragraphs: string[];
  /** Optional bullet points shown after the paragraphs (plain text). */
  points?: string[];
}

export interface LegalDocument {
  title: string;
  /** ISO date the text was last changed. */
  updated: string;
  /** One or two sentences shown under the title. */
  summary: string;
  sections: LegalSection[];
}

export const LEGAL_DOCUMENTS: Record<LegalPath, LegalDocument> = {
  '/privacy': {
    title: 'Privacy Policy',
    updated: '2026-11-25',
    summary:
      'How Tambari collects, uses, shares and protects personal data, and the rights you have over it. It ' +
      'covers our customers, the people they email, and the business contacts in our directory.',
    sections: [
      {
        heading: 'Who we are and what this policy covers',
        paragraphs: [
          'Tambari is the company that operates tambari.africa, based in Lagos, Nigeria ("Tambari", ' +
            '"we", "us"). This policy explains how we handle personal data when you visit our website, ' +
            'create an account, pay for a plan, send email through Tambari, or when your business details ' +
            'appear in our contact directory.',
          'We follow the Nigeria Data Protection Act 2023 (NDPA). Where other data protection laws ' +
            'apply to you or to the people you email, such as the EU or UK General Data Protection ' +
            'Regulation (GDPR) or South Africa’s Protection of Personal Information Act (POPIA), we ' +
            'handle the data in line with them too.',
          'For your own contact lists, campaigns and newsletters, you decide whom to email and why, so ' +
            'you are the data controller and Tambari processes that data on your behalf. For your ' +
            'account, your billing and our business contact directory, Tambari is the data controller.',
          'Tambari is a business service for people aged 18 and over, and we do not knowingly collect ' +
            'data about children. For any privacy question or request, email hello@tambari.africa with ' +
            '"Privacy request" in the subject.',
        ],
      },
      {
        heading: 'The data we collect',
        paragraphs: ['What we hold depends on how you use Tambari:'],
        points: [
          'Account: your first and last name, your email address, your role and plan, and your ' +
            'password, which we store only as a one-way argon2id hash.',
          'Sign-in sessions: the IP address and browser (user agent) of each session, and when it was ' +
            'created and last used. You can see and end your sessions under Settings.',
          'Billing: your plan, billing interval, amounts, payment references and status, and what ' +
            'Paystack returns about your card: its brand, last four digits, expiry month and year, and a ' +
            'reusable authorisation code used to charge renewals. We never receive or store your full ' +
            'card number or security code (CVV).',
          'Sender accounts: the SMTP and IMAP server details and user names of the mailboxes you ' +
            'connect, your From name and address, and the postal address shown in your emails. Mailbox ' +
            'passwords are encrypted with AES-256-GCM before they are stored.',
          'Your content: the contact lists you import or build (and your CSV files while they are being ' +
            'imported), campaigns, sequences, newsletters, templates, newsletter images, suppression ' +
            'entries, and the deal values you record when you mark a reply as won.',
          'Mail from your inbox: if you connect IMAP, Tambari reads new messages in your inbox without ' +
            'marking them as read, to recognise replies, bounces and out-of-office answers to the emails ' +
            'you sent through it. For those it stores the sender address, the subject and the first part ' +
            'of the text; of any other message it keeps only its Message-ID, so it is not read twice.',
          'Email activity: for each email sent through Tambari, when it was sent, delivered, opened, ' +
            'clicked, replied to, bounced or unsubscribed, with the user agent of the program that opened ' +
            'or clicked it.',
          'AI writing: how many AI drafts you asked for each day, so that plan limits can be applied. ' +
            'We do not keep the text you send to the AI or the drafts it returns.',
          'Technical data: server logs with IP addresses, the pages and API calls requested and any ' +
            'errors, used for security and troubleshooting.',
        ],
      },
      {
        heading: 'The business contact directory',
        paragraphs: [
          'Tambari offers a directory of business contacts: company name, business category, city and ' +
            'country, and where available a contact person’s name, job title, business email address, ' +
            'business phone number, website and business address. It is meant for business contact ' +
            'details only.',
          'These details come from publicly available business sources, such as company websites and ' +
            'business directories, and are added or imported by our team. Each record keeps its source, ' +
            'and our data team checks records and marks them as verified, unverified or invalid.',
          'We hold this data on the basis of legitimate interests: helping businesses find and contact ' +
            'other businesses about relevant products and services. Customers can see these records and ' +
            'copy them into their own contact lists, within the limits of their plan.',
          'If your details are in the directory and you want them corrected or removed, or you object ' +
            'to being listed, email hello@tambari.africa with "Privacy request" in the subject. On ' +
            'request we can also add your address to our platform-wide do-not-email list, so that no ' +
            'Tambari customer can send to it through Tambari.',
        ],
      },
      {
        heading: 'Emails sent through Tambari and how they are tracked',
        paragraphs: [
          'Campaigns and newsletters are sent from our customers’ own mailboxes, through the mail ' +
            'servers they connect. Every email carries the sender’s name and postal address, a visible ' +
            'unsubscribe link, and one-click unsubscribe headers that mail programs such as Gmail can ' +
            'show as an unsubscribe button.',
          'Unless the sender switches it off for a campaign, each email contains a tiny image that ' +
            'records an open, and its links pass through Tambari to record a click before going on to ' +
            'their destination. We store the time and the user agent of the program involved, and no ' +
            'cookies are used.',
          'We use the IP address of an open or click only at that moment, to tell automatic opens (such ' +
            'as Apple Mail Privacy Protection or security scanners) apart from people; we do not store it ' +
            'with the event.',
          'When someone unsubscribes, we record it at once, cancel the emails still queued for them and ' +
            'add the address to that sender’s suppression list. The list keeps only a one-way hash of the ' +
            'address and a masked hint (such as j***@example.com), and the sender cannot lift an ' +
            'unsubscribe or a spam complaint.',
          'If you received an email sent through Tambari, the sender is responsible for it. You can ' +
            'unsubscribe with its link, reply to the sender, or write to hello@tambari.africa and we will ' +
            'help.',
        ],
      },
      {
        heading: 'How we use data and our legal bases',
        paragraphs: [
          'We use personal data only for the purposes below, each with a legal basis under the NDPA ' +
            '(and the GDPR where it applies):',
        ],
        points: [
          'To provide the service you signed up for: your account, sending, tracking, reply detection ' +
            'and analytics (performance of our contract with you).',
          'To take payments, renew subscriptions and keep financial records (contract and legal ' +
            'obligations).',
          'To send service emails: receipts, failed-payment and subscription notices, password-reset ' +
            'links, and alerts such as a paused sender account (contract).',
          'To keep Tambari secure and its email deliverable: preventing abuse, applying sending limits, ' +
            'pausing sender accounts with high bounce rates, and keeping an audit log of staff actions ' +
            '(legitimate interests).',
          'To run the business contact directory described above (legitimate interests).',
          'To suggest a display currency: our server looks up the country of your IP address in a ' +
            'database it holds itself, without calling any outside service, and does not store the result ' +
            '(legitimate interests).',
          'Where the law requires your consent, we ask for it first, and you may withdraw it at any time.',
        ],
      },
      {
        heading: 'Who we share data with',
        paragraphs: [
          'We do not sell personal data, and we do not use your lists or your emails to advertise to ' +
            'anyone. We share data only as follows:',
        ],
        points: [
          'Paystack, which processes our payments. It receives your email address, the amount and the ' +
            'payment reference, and you type your card details into Paystack’s own checkout, never into ' +
            'Tambari.',
          'Your own mail providers: Tambari connects to the SMTP and IMAP servers you set up, to send ' +
            'your emails and read replies and bounces.',
          'Our AI model provider, only when you use AI writing: the goal, audience, tone, length and ' +
            'language you enter, or the text you select to rewrite. Your contact lists and account ' +
            'details are not sent, and Tambari does not log these prompts or the drafts.',
          'Service providers who host our servers and database and deliver our service emails, bound to ' +
            'keep the data confidential and secure.',
          'Public authorities when the law requires it, or others where needed to protect our users, ' +
            'the public or Tambari from fraud and abuse.',
          'A buyer or successor if Tambari’s business is sold or merged, who must respect this policy.',
        ],
      },
      {
        heading: 'How long we keep data',
        paragraphs: ['We keep personal data only for as long as we need it:'],
        points: [
          'Your account data and content: for as long as your account exists.',
          'When you delete your account: your profile, lists, campaigns, newsletters, sender accounts, ' +
            'suppression list, email activity, stored replies and payment history are deleted at once, ' +
            'and tracking hits that arrive late are removed within about an hour.',
          'After an account is deleted we keep only the payment notifications received from Paystack, ' +
            'no longer linked to the account, for accounting and fraud prevention, an audit-log note ' +
            'of the deletion with its email address, and the one-way hashes of the addresses that ' +
            'unsubscribed, complained or bounced (with the reason and date only), so that they are not ' +
            'mailed again if the account’s owner signs up anew with the same email.',
          'Contact lists you delete stay in the recycle bin for 30 days, then are deleted for good.',
          'Expired sign-in sessions and password-reset links (valid for 30 minutes) are removed within ' +
            'an hour of expiring; CSV uploads that are never imported are removed after 24 hours.',
          'Directory records: until they are corrected, removed or found to be invalid.',
        ],
      },
      {
        heading: 'How we protect data',
        paragraphs: [
          'Tambari is served over HTTPS. The sign-in cookie cannot be read by page scripts, passwords ' +
            'are stored as argon2id hashes, mailbox passwords are encrypted with AES-256-GCM, and card ' +
            'details stay with Paystack.',
          'Staff access depends on their role, administrative actions are recorded in an audit log, and ' +
            'sign-in and password-reset attempts are rate-limited.',
          'Some of our providers may process data outside Nigeria. When data leaves Nigeria, we rely on ' +
            'the safeguards the NDPA allows, such as adequate protection in the receiving country or ' +
            'contractual protections.',
          'No system is perfectly secure. If you suspect a problem, tell us at once at ' +
            'hello@tambari.africa. If a breach affects personal data, we will notify the Nigeria Data ' +
            'Protection Commission and the people affected as the NDPA requires.',
        ],
      },
      {
        heading: 'Your rights and changes to this policy',
        paragraphs: [
          'Under the NDPA, and the GDPR where it applies, you may ask to access your data, correct it, ' +
            'delete it, restrict or object to its use (including for direct marketing), receive it in a ' +
            'portable format, and withdraw consent you gave.',
          'Much of this you can do yourself: edit your profile and end sessions under Settings, ' +
            'download everything your account holds as one file under Settings → Your data, export any ' +
            'contact list as a CSV file, see your receipts under Subscription, and delete your account ' +
            'under Settings.',
          'For anything else, email hello@tambari.africa with "Privacy request" in the subject. We may ' +
            'ask you to confirm who you are, and we aim to answer within 30 days, free of charge.',
          'If you are not satisfied, you may complain to the Nigeria Data Protection Commission or to ' +
            'the data protection authority where you live. When we change this policy we update the date ' +
            'above, and we tell account holders about important changes by email or in the app.',
        ],
      },
    ],
  },
  '/terms': {
    title: 'Terms of Service',
    updated: '2026-11-25',
    summary:
      'The agreement between you and Tambari when you use tambari.africa. Please read it, especially the ' +
      'rules on sending email, which protect the people you write to and your own reputation.',
    sections: [
      {
        heading: 'About these terms and your account',
        paragraphs: [
          'These Terms of Service are an agreement between you and Tambari, the company that operates ' +
            'tambari.africa from Lagos, Nigeria. By creating an account or using Tambari you accept them, ' +
            'together with our Privacy Policy, Refund Policy, Cookie Policy and Disclaimer.',
          'Tambari is a business tool. You must be at least 18, and if you use Tambari for a company, ' +
            'you confirm that you may accept these terms for it; "you" then means that company.',
          'Give accurate details when you sign up, keep your password secret and tell us at once if you ' +
            'think someone else has used your account. You are responsible for everything done through ' +
            'your account.',
        ],
      },
      {
        heading: 'Sending email: your responsibilities',
        paragraphs: [
          'You are the sender of every email you send with Tambari. It goes out from your own ' +
            'mailboxes, and you are responsible for its content, for the people you send it to, and for ' +
            'following the laws that apply to you and to them.',
          'Those laws include the Nigeria Data Protection Act 2023 and, depending on where your ' +
            'recipients are, laws such as the US CAN-SPAM Act, the EU and UK GDPR and South Africa’s ' +
            'POPIA. When you use Tambari you agree to:',
        ],
        points: [
          'Email only people you have a lawful basis to contact: for cold outreach, business contacts ' +
            'you have a genuine and relevant business reason to write to, and their prior consent where ' +
            'their country requires it.',
          'Not upload purchased, rented or harvested lists unless you can show that the people on them ' +
            'may lawfully be contacted by you.',
          'Identify yourself truthfully, with a From address you control and a real postal address, and ' +
            'never use misleading subject lines or headers.',
          'Honour unsubscribes: keep the unsubscribe link and postal address Tambari adds to every ' +
            'email, and never remove, hide or work around them, or email unsubscribed people again by ' +
            'other means.',
          'Not send spam, phishing, malware, fraud, impersonation, hate, harassment, sexual content, or ' +
            'anything illegal or that infringes other people’s rights.',
          'Follow the rules of your own mail providers, and not use Tambari to get around their limits.',
        ],
      },
      {
        heading: 'Sending limits and account protection',
        paragraphs: [
          'Each sender account sends at most its daily cap: 50 emails a day by default and never more ' +
            'than 300, with an optional warm-up that starts lower. Before a campaign starts, Tambari ' +
            'checks it and warns you, for example when it reaches contacts in the EU, the UK or South ' +
            'Africa, where consent rules are stricter.',
          'Tambari automatically pauses a sender account when more than 5% of its recent emails (up to ' +
            'its last 100) bounced, once it has sent at least 20. We email you, and you can resume it ' +
            'after cleaning your list.',
          'Unsubscribes and spam complaints are never mailed again, and addresses that hard-bounce are ' +
            'left out of future sends.',
          'We may pause campaigns or newsletters, limit sending or suspend an account, without notice ' +
            'where needed, if we reasonably believe it breaks these terms, harms recipients, or endangers ' +
            'deliverability for others. We will tell you why unless the law or an investigation prevents ' +
            'it.',
        ],
      },
      {
        heading: 'The contact directory and your content',
        paragraphs: [
          'Your plan lets you search the directory and add contacts to your own lists, within its ' +
            'limits (the Free plan covers one country and one category). Use directory data only for your ' +
            'own business outreach; do not resell, publish or share it, or copy it in bulk by automated ' +
            'means.',
          'Your lists, templates, campaigns and newsletters remain yours. You allow Tambari to store, ' +
            'process and send them only to provide the service, and you confirm you have the right to ' +
            'upload them.',
          'For the personal data in your lists, Tambari acts on your instructions as described in the ' +
            'Privacy Policy. You can export any list as a CSV file, or all your data as one file, at ' +
            'any time.',
        ],
      },
      {
        heading: 'Plans, billing and renewals',
        paragraphs: [
          'The Free plan needs no card. The paid plans (Starter, Growth and Pro) are billed monthly or ' +
            'annually, and an annual plan costs ten times the monthly price. Prices are in Naira and ' +
            'charged through Paystack; amounts shown in other currencies are for reference only.',
          'Your plan starts once Paystack confirms the payment. Paid plans renew automatically at the ' +
            'end of each period by charging the card you paid with, until you cancel.',
          'You can cancel from your Subscription page at any time: you keep your plan until the end of ' +
            'the period you paid for, and you are not charged again. Refunds are covered by our Refund ' +
            'Policy.',
          'If a renewal fails, we try again one, two and three days later; if the last try fails, the ' +
            'subscription expires and paid features stop until you pay again. Your data stays in your ' +
            'account.',
          'When you upgrade, the unused part of your current period is credited against the new price. ' +
            'Downgrades and moves from annual to monthly billing take effect at the end of the current ' +
            'period.',
          'Plan limits, such as campaigns and newsletters a month, recipients, sender accounts, ' +
            'directory access and daily AI drafts, are shown on the Pricing page and in the app. If we ' +
            'raise the price of your plan, the new price applies only from a renewal after we have told ' +
            'you, and you may cancel before then.',
        ],
      },
      {
        heading: 'Our service and intellectual property',
        paragraphs: [
          'Tambari owns the software, the design, the Tambari name and logo, the template library and ' +
            'the directory as a compilation. We give you a limited, non-exclusive, non-transferable right ' +
            'to use Tambari while your account is open, and you may use our templates and AI drafts in ' +
            'your own emails.',
          'Do not copy, resell or reverse engineer Tambari, test its security without our written ' +
            'permission, or overload it or access it by automated means other than the features we offer.',
          'We improve Tambari all the time and may change or remove features, giving notice of ' +
            'important changes where we reasonably can. Services run by others, such as Paystack, your ' +
            'mail providers and our AI provider, are governed by their own terms.',
        ],
      },
      {
        heading: 'Suspension and termination',
        paragraphs: [
          'You may stop using Tambari at any time: cancel your plan, or delete your account under ' +
            'Settings, which permanently deletes your data as described in the Privacy Policy.',
          'We may suspend or close your account for a serious or repeated breach of these terms, for ' +
            'fraud or non-payment, or where the law requires it. Where it is reasonable, we will warn you ' +
            'first and give you a chance to put things right; a suspended account cannot sign in.',
          'If we close an account for a breach of these terms, payments already made are not refunded, ' +
            'except as our Refund Policy or the law requires. The sections on intellectual property, ' +
            'liability and governing law continue to apply after your account ends.',
        ],
      },
      {
        heading: 'Warranties, liability and indemnity',
        paragraphs: [
          'Tambari is provided "as is" and "as available". We do not promise that it will be ' +
            'uninterrupted or free of errors, that directory data is complete or accurate, or that your ' +
            'emails will be delivered, opened or answered. Our Disclaimer explains more.',
          'As far as the law allows, Tambari is not liable for indirect or consequential loss, or for ' +
            'lost profits, revenue, data or goodwill. Our total liability for any claim is limited to ' +
            'what you paid Tambari in the 12 months before it arose.',
          'Nothing in these terms limits liability that cannot be limited by law, or your rights under ' +
            'the Federal Competition and Consumer Protection Act 2018. You will compensate Tambari for ' +
            'claims by others arising from your emails, your lists or your breach of these terms or of ' +
            'the law.',
        ],
      },
      {
        heading: 'Governing law, changes and contact',
        paragraphs: [
          'These terms are governed by the laws of the Federal Republic of Nigeria. If a dispute ' +
            'arises, write to us first so we can try to settle it; if it is not resolved within 30 days, ' +
            'the courts of Lagos State, Nigeria will decide it.',
          'We may update these terms. We will tell you about important changes by email or in the app ' +
            'at least 14 days before they take effect; if you do not agree, you may cancel and delete ' +
            'your account before then.',
          'Questions about these terms: hello@tambari.africa.',
        ],
      },
    ],
  },
  '/refund-policy': {
    title: 'Refund Policy',
    updated: '2026-11-25',
    summary:
      'Tambari bills in Naira through Paystack. Here is when we refund a payment, how to ask for a ' +
      'refund, and how long the money takes to reach you.',
    sections: [
      {
        heading: 'Try first, cancel any time',
        paragraphs: [
          'The Free plan needs no card and has no time limit, so you can try Tambari properly before ' +
            'you pay for anything.',
          'You can cancel a paid plan from your Subscription page at any time. Cancelling stops future ' +
            'renewals and you keep your plan until the end of the period you paid for; on its own it does ' +
            'not refund the current period.',
        ],
      },
      {
        heading: 'When we refund',
        paragraphs: ['We refund a payment in full in these cases:'],
        points: [
          'Your first payment for a paid plan, monthly or annual, if you ask within 7 days of paying.',
          'An automatic renewal you did not mean to keep, if you ask within 7 days of the charge and ' +
            'have not launched a campaign or sent a newsletter since the renewal.',
          'A charge made in error, such as being charged twice for the same period, a payment that did ' +
            'not switch your plan on (unless we activate it for you), or a charge after you cancelled.',
        ],
      },
      {
        heading: 'When we do not refund',
        paragraphs: [
          'Outside the cases above we do not refund partial periods, including the unused months of an ' +
            'annual plan; cancel instead and keep your plan until the period ends. When you upgrade, the ' +
            'unused part of your period is already credited against the new price.',
          'We do not refund payments for accounts suspended or closed for breaking our Terms of ' +
            'Service, for example for sending spam. Nor do we refund because of delivery, open or reply ' +
            'rates, which depend on your lists, your content and your mail providers.',
          'We may still refund in other cases at our discretion, for example after a long outage. ' +
            'Nothing in this policy limits your rights under Nigerian consumer protection law, including ' +
            'the Federal Competition and Consumer Protection Act 2018.',
        ],
      },
      {
        heading: 'How to ask for a refund',
        paragraphs: [
          'Email hello@tambari.africa with "Refund request" in the subject, from the email address of ' +
            'your Tambari account, and include:',
        ],
        points: [
          'The email address of your Tambari account.',
          'The payment reference, shown on your receipt email and in the payment history on your ' +
            'Subscription page.',
          'The date and amount of the payment.',
          'A short reason for the request.',
        ],
      },
      {
        heading: 'Before you delete your account or dispute a charge',
        paragraphs: [
          'Please ask for a refund before you delete your account. Deleting it also deletes your ' +
            'payment history, which makes the payment harder for us to find and check.',
          'If you think a charge is wrong, please write to us before disputing it with your bank. We ' +
            'can usually resolve it faster than a chargeback.',
        ],
      },
      {
        heading: 'What happens next',
        paragraphs: [
          'We reply within 3 business days. If we approve the refund, we mark the payment as refunded ' +
            'in your payment history and return the money through Paystack to the card or account you ' +
            'paid with; we cannot send it to another card, account or person.',
          'We refund the amount you paid, in Naira. If your card is in another currency, your bank ' +
            'converts it, and exchange rate differences are outside our control.',
          'The paid period a refunded payment bought normally ends when we refund it. Your data stays ' +
            'in your account, and you can carry on with the Free plan by choosing it on the Pricing page.',
        ],
      },
      {
        heading: 'How long it takes',
        paragraphs: [
          'Once we have issued the refund through Paystack, it usually reaches you within 5 to 10 ' +
            'business days, depending on your bank; some banks take longer.',
          'If you have not received it after 10 business days, email us with your payment reference and ' +
            'we will give you the details your bank needs to trace it. We may update this policy; the ' +
            'version in force when you paid applies to that payment.',
        ],
      },
    ],
  },
  '/disclaimer': {
    title: 'Disclaimer',
    updated: '2026-11-25',
    summary:
      'Tambari gives you data, tools and guidance for business email. This page explains what we cannot ' +
      'promise, so that you rely on the service in the right way.',
    sections: [
      {
        heading: 'Contact data is checked, not guaranteed',
        paragraphs: [
          'Our directory is compiled from publicly available business sources, and our data team checks ' +
            'records and marks them as verified. Addresses you import are checked for format and, if you ' +
            'choose, for whether their domain accepts email.',
          'Business details change: people move on, companies close and addresses stop working. ' +
            '"Verified" means a record passed our checks when it was verified, not that it is still ' +
            'correct today or that the person wants to hear from you.',
          'We do not guarantee that directory data is complete, accurate or current, and counts of ' +
            'contacts are snapshots that change as records are added and removed.',
        ],
      },
      {
        heading: 'Deliverability and results are not guaranteed',
        paragraphs: [
          'Your emails are sent through your own mailboxes. Whether they reach the inbox depends on ' +
            'your mail provider, your domain’s SPF, DKIM and DMARC records, your sending history, your ' +
            'list, your content and the receiving servers.',
          'Tambari helps with domain checks, spam-word and link checks, daily caps, warm-up, random ' +
            'gaps between sends, suppression lists and bounce handling. Even so, we cannot guarantee ' +
            'delivery, inbox placement, opens, replies or sales.',
          'Delivery or inbox rates mentioned on our website describe what well-run campaigns can ' +
            'achieve. They are not a promise about your campaigns.',
        ],
      },
      {
        heading: 'Analytics are indicators',
        paragraphs: [
          'Opens are counted when an email’s images load. Some mail programs and security scanners load ' +
            'them automatically, and some people read with images switched off. We count the automatic ' +
            'opens we can detect separately, but no method is perfect, so treat open rates as a guide.',
          'Revenue and return on investment are worked out from the deal values you enter and your plan ' +
            'cost, and are only as accurate as those figures.',
          'Prices shown in currencies other than Naira use exchange rates from a public source, ' +
            'refreshed hourly, with fixed fallback rates when it is unavailable. They are for information ' +
            'only: every charge is in Naira.',
        ],
      },
      {
        heading: 'Review AI-written text before you send it',
        paragraphs: [
          'AI drafts and rewrites are produced by a language model. They can contain mistakes, invented ' +
            'facts, awkward wording or unsuitable claims, including in translations into French, Nigerian ' +
            'Pidgin, Swahili, Hausa and Yoruba.',
          'Read, check and edit every draft before you send it: you are responsible for what goes out ' +
            'under your name. Do not put confidential or sensitive personal information into AI requests.',
        ],
      },
      {
        heading: 'Not legal advice',
        paragraphs: [
          'Our templates, pre-launch checks, consent warnings, help articles and website content are ' +
            'general information, not legal, tax or other professional advice.',
          'Laws on email marketing and data protection differ between countries and change over time, ' +
            'and passing Tambari’s checks does not mean a campaign is lawful. Ask a qualified lawyer ' +
            'about your own situation, for example whether you may email a particular audience.',
        ],
      },
      {
        heading: 'Third-party services',
        paragraphs: [
          'Payments are processed by Paystack, your emails are sent and received by your own mail ' +
            'providers (such as Google Workspace, Microsoft 365, Zoho Mail or your web host), and AI ' +
            'drafts come from an outside AI provider.',
          'Their availability, decisions (for example sending limits or blocked accounts) and terms are ' +
            'outside our control, and we are not responsible for them. Links to other websites are for ' +
            'convenience and are not an endorsement.',
        ],
      },
      {
        heading: 'Availability and your own copies',
        paragraphs: [
          'We work hard to keep Tambari running and your data safe, but we cannot promise an ' +
            'uninterrupted or error-free service. Scheduled emails can be delayed by maintenance, ' +
            'provider outages or your own sending windows and caps.',
          'Keep your own copies of important lists by exporting them as CSV files. Our liability is ' +
            'limited as set out in our Terms of Service; questions about this page are welcome at ' +
            'hello@tambari.africa.',
        ],
      },
    ],
  },
  '/cookie-policy': {
    title: 'Cookie Policy',
    updated: '2026-11-25',
    summary:
      'Tambari uses one sign-in cookie and a few small browser storage items that make the site work. ' +
      'There are no advertising, analytics or third-party tracking cookies.',
    sections: [
      {
        heading: 'Cookies and browser storage',
        paragraphs: [
          'A cookie is a small piece of text a website stores in your browser, which the browser sends ' +
            'back with each request to that site. Local storage and session storage are similar places in ' +
            'your browser where a site keeps small settings: local storage lasts until it is cleared, ' +
            'session storage until you close the tab.',
          'This policy lists everything Tambari stores in your browser, why, and for how long.',
        ],
      },
      {
        heading: 'The cookie we set',
        paragraphs: [
          'Tambari sets one cookie, and only when you sign up or sign in. It is strictly necessary: ' +
            'without it we cannot tell that you are signed in.',
        ],
        points: [
          'tambari.session_token: keeps you signed in by holding a signed, random session identifier. ' +
            'Page scripts cannot read it (HttpOnly), it is withheld from most requests started by other ' +
            'sites (SameSite=Lax), and on our secure HTTPS site it travels only over encrypted ' +
            'connections and is named __Secure-tambari.session_token.',
          'Lifetime: 30 days, extended while you use Tambari (at most once a day). It is deleted when ' +
            'you sign out or delete your account, and it stops working if you end that session from ' +
            'Settings.',
        ],
      },
      {
        heading: 'Browser storage we use',
        paragraphs: [
          'These items hold only simple choices, not personal data, and your browser does not send them ' +
            'to our servers:',
        ],
        points: [
          'tambari.currency (local storage): the display currency you chose, or the one suggested for ' +
            'your country (NGN, ZAR, KES, GHS or USD). Kept until you clear your browser’s data for this ' +
            'site.',
          'selectedPlan and selectedInterval (local storage): the plan and billing interval you picked ' +
            'on the Pricing page, so that sign-up can take you on to payment. Replaced by your next ' +
            'choice, removed if you continue on the Free plan, otherwise kept until you clear your ' +
            'browser’s data for this site.',
          'tambari:signed-out (session storage): a one-time flag that shows the "Signed out" message ' +
            'after signing out reloads the page. Removed as soon as the message appears, and in any case ' +
            'when you close the tab.',
        ],
      },
      {
        heading: 'What we do not use',
        paragraphs: [
          'Tambari uses no advertising cookies, no analytics or tracking tools such as Google Analytics ' +
            'or the Meta Pixel, and no social media plugins. We do not share cookie data with ' +
            'advertisers.',
          'The app is served from our own servers and loads no third-party scripts, except Paystack’s ' +
            'checkout when you choose to pay.',
        ],
      },
      {
        heading: 'Paystack checkout',
        paragraphs: [
          'When you pay for a plan, the checkout window is loaded from Paystack (js.paystack.co). ' +
            'Paystack may use its own cookies or similar technologies in that window to process the ' +
            'payment securely and prevent fraud.',
          'Those are governed by Paystack’s own cookie and privacy policies; Tambari does not set or ' +
            'read them.',
        ],
      },
      {
        heading: 'Emails sent through Tambari',
        paragraphs: [
          'The open-tracking image and the tracked links in emails sent through Tambari do not set or ' +
            'read cookies. They record the open or click against that one email, as our Privacy Policy ' +
            'explains, and senders can switch open and click tracking off for a campaign.',
        ],
      },
      {
        heading: 'Managing cookies and changes to this policy',
        paragraphs: [
          'You can block or delete cookies and site data in your browser settings. If you block the ' +
            'session cookie, you will not be able to sign in; clearing the storage items only resets your ' +
            'currency and plan choices.',
          'If we start using any other cookie or storage item, we will update this policy and its date ' +
            'first. Questions: hello@tambari.africa.',
        ],
      },
    ],
  },
};
