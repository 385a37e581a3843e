import { describe, expect, it } from 'vitest';
import { SENDER_PLACEHOLDERS, withSenderValues } from '../sending/sending.service';
import { renderForContact, renderForQueue, SAMPLE_CONTACT } from './personalize';

/*
 * `{{ senderCompany }}`: the sending account's company. Rendered directly when the account is known
 * (previews, test sends) and through a placeholder when it is not (queued messages, filled at dispatch).
 * The company may be missing, so an empty value and the `default` filter must work both ways.
 */

const withCompany = { fromName: 'Tunde Bello', fromEmail: 'tunde@bello.test', company: 'Bello & Sons' };
const withoutCompany = { fromName: 'Tunde Bello', fromEmail: 'tunde@bello.test', company: null };

const SUBJECT = 'News from {{ senderCompany | default: "our team" }}';
const HTML = '<p>We at {{ senderCompany }} — {{ senderCompany | default: "our team" }}.</p>';

function direct(sender: typeof withCompany | typeof withoutCompany) {
  return renderForContact({ subject: SUBJECT, html: HTML, contact: SAMPLE_CONTACT, sender, seed: 's' });
}

function queuedThenSent(sender: typeof withCompany | typeof withoutCompany) {
  const queued = renderForQueue({
    subject: SUBJECT,
    html: HTML,
    contact: SAMPLE_CONTACT,
    seed: 's',
    fallbackSender: { id: 'other', ...withCompany, company: 'Wrong Company' },
  });
  // The placeholders carry the tag to dispatch: the message is not bound to an account.
  expect(queued.renderedFor).toBeNull();
  return withSenderValues({ subject: queued.subject, html: queued.html, text: null }, sender);
}

describe('{{ senderCompany }}', () => {
  it('renders the account’s company, escaped in HTML and plain in the subject', () => {
    for (const out of [direct(withCompany), queuedThenSent(withCompany)]) {
      expect(out.subject).toBe('News from Bello & Sons');
      expect(out.html).toBe('<p>We at Bello &amp; Sons — Bello &amp; Sons.</p>');
    }
  });

  it('renders empty without a company, and the default filter’s fallback where one is given', () => {
    for (const out of [direct(withoutCompany), queuedThenSent(withoutCompany)]) {
      expect(out.subject).toBe('News from our team');
      expect(out.html).toBe('<p>We at  — our team.</p>');
    }
  });

  it('treats a blank company as none', () => {
    const out = queuedThenSent({ ...withoutCompany, company: '   ' } as never);
    expect(out.subject).toBe('News from our team');
  });

  it('escapes a fallback in HTML, never in the subject', () => {
    const queued = renderForQueue({
      subject: '{{ senderCompany | default: "R&D <team>" }}',
      html: "<p>{{ senderCompany | default: 'R&D <team>' }}</p>",
      contact: SAMPLE_CONTACT,
      seed: 's',
      fallbackSender: null,
    });
    const sent = withSenderValues({ subject: queued.subject, html: queued.html, text: null }, withoutCompany);
    expect(sent.subject).toBe('R&D <team>');
    expect(sent.html).toBe('<p>R&amp;D &lt;team&gt;</p>');
  });

  it('binds the message to an account when a template reshapes the company', () => {
    const queued = renderForQueue({
      subject: 'Hi',
      html: '<p>{{ senderCompany | upcase }}</p>',
      contact: SAMPLE_CONTACT,
      seed: 's',
      fallbackSender: { id: 'acc-1', ...withCompany },
    });
    expect(queued.renderedFor).toBe('acc-1');
    expect(queued.html).toBe('<p>BELLO &amp; SONS</p>');
  });

  it('keeps the fallback wherever the sender is a placeholder (an earlier step’s subject in a thread)', () => {
    const earlier = renderForContact({
      subject: SUBJECT,
      html: '',
      contact: SAMPLE_CONTACT,
      sender: SENDER_PLACEHOLDERS,
      seed: 's',
    });
    expect(withSenderValues({ subject: earlier.subject, html: '', text: null }, withoutCompany).subject).toBe(
      'News from our team',
    );
  });
});
