import { CalendarCheck, CreditCard, type LucideIcon, Rocket } from 'lucide-react';

import { Card, CardContent } from '@/components/ui/card';

interface Guarantee {
  icon: LucideIcon;
  title: string;
  body: string;
  footnote: string;
}

/**
 * The payment screen has three cards where testimonials would go. Quotes from customers who do not exist would
 * mislead a buyer at the moment they pay, so the cards carry three promises the product keeps instead.
 */
const GUARANTEES: Guarantee[] = [
  {
    icon: CreditCard,
    title: 'Billed in Naira',
    body: 'Pay in ₦ with Visa, Mastercard or Verve through Paystack. Your card details go to Paystack, never to our servers.',
    footnote: 'Secured by Paystack',
  },
  {
    icon: CalendarCheck,
    title: 'Cancel anytime',
    body: 'Cancel from your Subscription page in two clicks. You keep everything you paid for until the end of the period.',
    footnote: 'No lock-in, no phone calls',
  },
  {
    icon: Rocket,
    title: 'Ready the moment you pay',
    body: 'Once Paystack confirms the payment your plan is active, your new limits apply at once and a receipt waits under Subscription.',
    footnote: 'Receipts for every payment',
  },
];

export function GuaranteeCards({ layout = 'row' }: { layout?: 'row' | 'stack' }) {
  return (
    <section aria-labelledby="guarantees-heading" className="space-y-4">
      <h2 id="guarantees-heading" className="sr-only">
        Our billing promises
      </h2>
      <ul
        className={
          layout === 'row' ? 'grid gap-4 md:grid-cols-3' : 'grid gap-4 md:grid-cols-3 lg:grid-cols-1'
        }
        data-testid="guarantee-cards"
      >
        {GUARANTEES.map((item) => (
          <li key={item.title}>
            <Card className="h-full gap-0 py-5">
              <CardContent className="flex h-full flex-col gap-3">
                <span className="flex size-10 items-center justify-center rounded-full bg-accent text-accent-foreground">
                  <item.icon className="size-5" aria-hidden="true" />
                </span>
                <h3 className="font-semibold">{item.title}</h3>
                <p className="flex-1 text-sm leading-relaxed text-muted-foreground">{item.body}</p>
                <p className="border-t pt-3 text-xs font-medium tracking-wide text-primary uppercase">
                  {item.footnote}
                </p>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
