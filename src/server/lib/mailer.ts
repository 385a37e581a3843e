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

function stripHeaderBreaks(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}

export function createSystemMailer(options: { smtpUrl: string; from: string }): SystemMailer {
  const transport: Transporter = nodemailer.createTransport(options.smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({
        from: options.from,
        to: stripHeaderBreaks(mail.to),
        subject: stripHeaderBreaks(mail.subject),
        text: mail.text,
        html: mail.html,
      });
    },
    close: () => transport.close(),
  };
}
