import type { Payment } from '@shared/payments';
import { Printer } from 'lucide-react';

import { BrandMark } from '@/components/brand-logo';
import { CONTACT_EMAIL } from '@/components/marketing/public-footer';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import {
  describeCard,
  formatNaira,
  intervalLabel,
  ORDER_KIND_LABEL,
  ORDER_STATUS_BADGE,
} from '@/lib/billing';
import { formatDate, formatDateTime } from '@/lib/format';

/** A payment's receipt, printable on its own (the print stylesheet hides everything else). */
export function ReceiptDialog({
  payment,
  customer,
  onOpenChange,
}: {
  payment: Payment | null;
  customer: { name: string; email: string };
  onOpenChange: (open: boolean) => void;
}) {
  const status = payment
    ? (ORDER_STATUS_BADGE[payment.status] ?? { label: payment.status, tone: 'secondary' })
    : null;
  return (
    <Dialog open={payment !== null} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl" data-testid="receipt-dialog">
        {payment && status && (
          <>
            <DialogHeader className="sr-only">
              <DialogTitle>Receipt {payment.reference}</DialogTitle>
              <DialogDescription>Payment receipt for your Tambari subscription.</DialogDescription>
            </DialogHeader>
            <article className="print-receipt space-y-6 text-sm" aria-label={`Receipt ${payment.reference}`}>
              <header className="flex flex-wrap items-start justify-between gap-4 border-b pb-4">
                <div className="space-y-1">
                  <p className="flex items-center gap-2 text-lg font-bold tracking-tight">
                    <BrandMark />
                    Tambari
                  </p>
                  <address className="text-xs leading-relaxed text-muted-foreground not-italic">
                    Tambari
                    <br />
                    Lagos, Nigeria
                    <br />
                    {CONTACT_EMAIL}
                  </address>
                </div>
                <div className="text-right">
                  <p className="text-lg font-semibold">Receipt</p>
                  <p className="font-mono text-xs text-muted-foreground" data-testid="receipt-reference">
                    {payment.reference}
                  </p>
                  <Badge variant={status.tone} className="mt-2">
                    {status.label}
                  </Badge>
                </div>
              </header>

              <dl className="grid grid-cols-2 gap-4">
                <div>
                  <dt className="text-xs text-muted-foreground">Billed to</dt>
                  <dd className="font-medium">{customer.name}</dd>
                  <dd className="break-all text-muted-foreground">{customer.email}</dd>
                </div>
                <div className="text-right">
                  <dt className="text-xs text-muted-foreground">Date</dt>
                  <dd className="font-medium">{formatDateTime(payment.paidAt ?? payment.createdAt)}</dd>
                </div>
              </dl>

              <table className="w-full border-collapse">
                <caption className="sr-only">Items</caption>
                <thead>
                  <tr className="border-b text-left text-xs text-muted-foreground">
                    <th scope="col" className="py-2 font-medium">
                      Description
                    </th>
                    <th scope="col" className="py-2 text-right font-medium">
                      Amount
                    </th>
                  </tr>
                </thead>
                <tbody>
                  <tr className="border-b">
                    <td className="py-3">
                      <p className="font-medium">
                        Tambari {payment.planName} plan · {intervalLabel(payment.interval)}
                      </p>
                      <p className="text-xs text-muted-foreground">
                        {ORDER_KIND_LABEL[payment.kind] ?? payment.kind}
                        {payment.periodStart && payment.periodEnd
                          ? ` · ${formatDate(payment.periodStart)} – ${formatDate(payment.periodEnd)}`
                          : ''}
                      </p>
                    </td>
                    <td className="py-3 text-right tabular-nums">
                      {formatNaira(payment.amount + payment.credit)}
                    </td>
                  </tr>
                  {payment.credit > 0 && (
                    <tr className="border-b">
                      <td className="py-2 text-muted-foreground">
                        Credit for unused time on the previous plan
                      </td>
                      <td className="py-2 text-right tabular-nums">−{formatNaira(payment.credit)}</td>
                    </tr>
                  )}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row" className="pt-3 text-left font-semibold">
                      {payment.status === 'refunded' ? 'Paid (refunded)' : 'Total paid'}
                    </th>
                    <td
                      className="pt-3 text-right text-base font-semibold tabular-nums"
                      data-testid="receipt-total"
                    >
                      {formatNaira(payment.amount)}
                    </td>
                  </tr>
                </tfoot>
              </table>

              <dl className="grid gap-1 rounded-lg bg-muted/60 p-3 sm:grid-cols-[auto_1fr] sm:gap-x-6">
                <dt className="text-muted-foreground">Payment method</dt>
                <dd>{describeCard(payment.cardBrand, payment.cardLast4) ?? payment.channel ?? '—'}</dd>
                <dt className="text-muted-foreground">Currency</dt>
                <dd>Nigerian Naira (NGN)</dd>
                {payment.refundedAt && (
                  <>
                    <dt className="text-muted-foreground">Refunded</dt>
                    <dd>{formatDateTime(payment.refundedAt)}</dd>
                  </>
                )}
              </dl>
              <p className="text-xs text-muted-foreground">
                Thank you for your business. Questions about this payment? Write to {CONTACT_EMAIL} and quote
                the reference above.
              </p>
            </article>
            <DialogFooter className="print:hidden">
              <Button variant="outline" onClick={() => onOpenChange(false)}>
                Close
              </Button>
              <Button onClick={() => window.print()} data-testid="receipt-print">
                <Printer aria-hidden="true" />
                Print receipt
              </Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
