import { escapeHtml } from '@server/lib/html';
import { formatMoney, koboToNaira } from '@shared/currency';
import { PLAN_NAMES, type PlanId } from '@shared/plans';
import type { BillingServices, OrderRow } from './billing.service';

export const RECEIPT_SUBJECT_PREFIX = 'Your Tambari receipt';

const naira = (kobo: number) => formatMoney(koboToNaira(kobo), 'NGN');
const day = (d: Date | null) =>
  d
    ? new Intl.DateTimeFormat('en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(d)
    : '—';

interface Recipient {
  email: string;
  firstName: string;
}

function send(services: BillingServices, to: Recipient, subject: string, lines: string[]) {
  const name = to.firstName || 'there';
  // The company's name and postal address follow as the system mailer's footer.
  const text = [`Hello ${name},`, '', ...lines].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(name)},</p>`,
    ...lines.filter((l) => l !== '').map((l) => `<p>${escapeHtml(l)}</p>`),
  ].join('');
  // Mail must never undo a payment that has been recorded: failures are logged, not thrown.
  return services.mailer.send({ to: to.email, subject, text, html }).catch((error: unknown) => {
    services.log?.error({ err: error }, `billing email "${subject}" could not be sent`);
  });
}

export function sendReceipt(services: BillingServices, to: Recipient, order: OrderRow) {
  const plan = PLAN_NAMES[order.planId as PlanId] ?? order.planId;
  const interval = order.interval === 'annual' ? 'annual' : 'monthly';
  const lines = [
    `Thank you for your payment. Your ${plan} plan (${interval}) is active until ${day(order.periodEnd)}.`,
    '',
    `Receipt: ${order.reference}`,
    `Date: ${day(order.paidAt)}`,
    `Plan: ${plan}, billed ${interval === 'annual' ? 'annually' : 'monthly'}`,
    ...(order.creditAmount > 0 ? [`Credit from your previous plan: ${naira(order.creditAmount)}`] : []),
    `Amount paid: ${naira(order.amount)} (NGN)`,
    ...(order.cardLast4
      ? [`Card: ${(order.cardBrand ?? 'card').toUpperCase()} ending ${order.cardLast4}`]
      : []),
    `Period: ${day(order.periodStart)} to ${day(order.periodEnd)}`,
    '',
    `Manage your subscription at ${services.env.APP_URL}/subscription`,
  ];
  return send(services, to, `${RECEIPT_SUBJECT_PREFIX} — ${plan} (${interval})`, lines);
}

export function sendRenewalFailed(
  services: BillingServices,
  to: Recipient,
  input: { planId: string; amount: number; nextRetryAt: Date | null; reason: string },
) {
  const plan = PLAN_NAMES[input.planId as PlanId] ?? input.planId;
  return send(services, to, 'Payment failed: update your payment method', [
    `We could not renew your ${plan} plan: the charge of ${naira(input.amount)} did not go through (${input.reason}).`,
    input.nextRetryAt
      ? `We will try again on ${day(input.nextRetryAt)}. To keep your access now, update your payment method at ${services.env.APP_URL}/payment?plan=${input.planId}&returning=true`
      : `Update your payment method at ${services.env.APP_URL}/payment?plan=${input.planId}&returning=true`,
  ]);
}

export function sendSubscriptionEnded(
  services: BillingServices,
  to: Recipient,
  input: { planId: string; status: 'expired' | 'cancelled' },
) {
  const plan = PLAN_NAMES[input.planId as PlanId] ?? input.planId;
  return send(
    services,
    to,
    input.status === 'expired'
      ? 'Your Tambari subscription has expired'
      : 'Your Tambari subscription has ended',
    [
      input.status === 'expired'
        ? `We could not collect payment for your ${plan} plan after several attempts, so it has expired.`
        : `Your ${plan} plan has ended, as you asked.`,
      `Renew at any time at ${services.env.APP_URL}/pricing — or continue on the Free plan.`,
    ],
  );
}
