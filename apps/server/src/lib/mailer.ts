import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Queues the mail and returns at once, so a caller's response time never depends on delivery. */
  send(mail: Mail): void;
  /** Resolves when every queued mail has been handed over (tests, shutdown). */
  flush(): Promise<void>;
  close(): void;
}

/** SMTP through nodemailer when SMTP_URL is set; otherwise each mail is written to the log with its links. */
export function createMailer(options: { smtpUrl?: string; from: string; logger: FastifyBaseLogger }): Mailer {
  const transport: Transporter | null = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
  const pending = new Set<Promise<void>>();
  return {
    send(mail) {
      const task = (async () => {
        if (!transport) {
          options.logger.info(
            { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
            `mail to ${mail.to}: ${mail.subject}`,
          );
          return;
        }
        try {
          await transport.sendMail({ from: options.from, ...mail });
          options.logger.info({ to: mail.to, subject: mail.subject }, 'mail sent');
        } catch (error) {
          options.logger.error({ err: error, to: mail.to, subject: mail.subject }, 'mail delivery failed');
        }
      })();
      pending.add(task);
      void task.finally(() => pending.delete(task));
    },
    async flush() {
      await Promise.all([...pending]);
    },
    close() {
      transport?.close();
    },
  };
}
