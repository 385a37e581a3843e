import { escapeHtml } from '@server/lib/html';
import { SIGNUP_MESSAGES } from '@shared/signup-forms';
import { publicPage } from '../tracking/tracking.service';
import type { PendingConsent, PublicForm } from './signup-forms.service';

/* The visitor's pages: the hosted form, "check your inbox", and the confirmation step. No script. */

export function renderSignupFormPage(
  form: PublicForm,
  state: { email?: string; firstName?: string; errors?: { email?: string; consent?: string } } = {},
): string {
  const errors = state.errors ?? {};
  const error = (message: string | undefined, id: string) =>
    message ? `<p class="error" id="${id}">${escapeHtml(message)}</p>` : '';
  return publicPage(
    form.title,
    `<h1>${escapeHtml(form.title)}</h1>
${form.description ? `<p>${escapeHtml(form.description)}</p>` : ''}
<p class="muted">From ${escapeHtml(form.senderName)}</p>
<form method="post" action="/subscribe/${escapeHtml(form.id)}" novalidate>
<label for="email">Email</label>
<input id="email" type="email" name="email" required autocomplete="email" value="${escapeHtml(state.email ?? '')}"${errors.email ? ' aria-invalid="true" aria-describedby="email-error"' : ''}>
${error(errors.email, 'email-error')}
<label for="firstName">First name (optional)</label>
<input id="firstName" type="text" name="firstName" autocomplete="given-name" maxlength="100" value="${escapeHtml(state.firstName ?? '')}">
<label class="check"><input type="checkbox" name="consent" value="yes" required${errors.consent ? ' aria-invalid="true" aria-describedby="consent-error"' : ''}> <span>${escapeHtml(form.consentText)}</span></label>
${error(errors.consent, 'consent-error')}
<div class="hp" aria-hidden="true"><label for="website">Leave this empty</label><input id="website" type="text" name="website" tabindex="-1" autocomplete="off"></div>
<p><button type="submit">Subscribe</button></p>
</form>
<p class="muted">We will email you a link to confirm. You are subscribed only once you confirm.</p>`,
  );
}

export const CHECK_INBOX_PAGE = publicPage(
  SIGNUP_MESSAGES.checkInbox,
  `<h1>${SIGNUP_MESSAGES.checkInbox}</h1>
<p>If the address is right, an email with a confirmation link is on its way. Open it and confirm to subscribe.</p>
<p class="muted">Nothing arrived? Look in the spam folder, or sign up again in a few minutes.</p>`,
);

export const FORM_CLOSED_PAGE = publicPage(
  SIGNUP_MESSAGES.formClosed,
  `<h1>${SIGNUP_MESSAGES.formClosed}</h1><p>The sender has closed this form, or the link is wrong.</p>`,
);

export const TOO_MANY_PAGE = publicPage(
  'Try again later',
  `<h1>Try again later</h1><p>${SIGNUP_MESSAGES.tooMany}</p>`,
);

export const LINK_INVALID_PAGE = publicPage(
  SIGNUP_MESSAGES.linkInvalid,
  `<h1>${SIGNUP_MESSAGES.linkInvalid}</h1><p>Links work for 7 days. Sign up again on the sender's form to get a new one.</p>`,
);

export function renderConfirmPage(consent: PendingConsent, actionPath: string): string {
  if (consent.confirmed) return CONFIRMED_PAGE;
  return publicPage(
    'Confirm your subscription',
    `<h1>Confirm your subscription</h1>
<p>Receive emails from <strong>${escapeHtml(consent.senderName)}</strong> ("${escapeHtml(consent.title)}") at <strong>${escapeHtml(consent.email)}</strong>?</p>
<form method="post" action="${escapeHtml(actionPath)}">
<button type="submit">Yes, subscribe me</button>
</form>
<p class="muted">Every email will carry a link to unsubscribe.</p>`,
  );
}

export const CONFIRMED_PAGE = publicPage(
  SIGNUP_MESSAGES.confirmed,
  `<h1>${SIGNUP_MESSAGES.confirmed}</h1><p>Thank you. You can unsubscribe at any time with the link in every email.</p>`,
);
