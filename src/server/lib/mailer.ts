import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';

export interface SystemMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends the platform's own mail (password resets, notices). Campaign mail has its own transports. */
export interface SystemMailer {
  send(mail: SystemMail): Promise<void>;
  close(): void;
}

/** Who the platform's mail is from: the From name and the footer (company, postal address, support). */
export interface SystemMailIdentity {
  fromName: string;
  footerText: string;
  footerHtml: string;
}

function stripHeaderBreaks(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}

/** `Name <address>` or a bare address: the address part. */
export function addressOf(from: string): string {
  const match = /<([^>]+)>\s*$/.exec(from);
  return (match?.[1] ?? from).trim();
}

/** A From header with the display name quoted when it needs to be (commas, quotes, dots…). */
export function formatFrom(name: string, address: string): string {
  const clean = stripHeaderBreaks(name).trim();
  if (!clean) return address;
  const quoted = /^[\w !#$%&'*+/=?^`{|}~-]+$/.test(clean) ? clean : `"${clean.replace(/["\\]/g, '\\$&')}"`;
  return `${quoted} <${address}>`;
}

/**
 * The platform's mail transport. With `identity`, every message goes out under the operator's From name
 * (the address stays `from`'s) and ends with the company footer; if the identity cannot be read (a
 * database hiccup), the mail still goes, as `from` and without the footer.
 */
export function createSystemMailer(options: {
  smtpUrl: string;
  from: string;
  identity?: () => Promise<SystemMailIdentity>;
  log?: FastifyBaseLogger;
}): SystemMailer {
  const transport: Transporter = nodemailer.createTransport(options.smtpUrl);
  const address = addressOf(options.from);
  return {
    async send(mail) {
      const identity = await options.identity?.().catch((error: unknown) => {
        options.log?.warn({ err: error }, 'system mail identity could not be read; sending without it');
        return undefined;
      });
      await transport.sendMail({
        from: identity ? formatFrom(identity.fromName, address) : options.from,
        to: stripHeaderBreaks(mail.to),
        subject: stripHeaderBreaks(mail.subject),
        text: identity ? `${mail.text}\n\n--\n${identity.footerText}` : mail.text,
        html: identity ? `${mail.html}${identity.footerHtml}` : mail.html,
      });
    },
    close: () => transport.close(),
  };
}
