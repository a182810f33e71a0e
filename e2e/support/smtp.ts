// A real SMTP receiver for the tests: the server under test sends through SMTP_URL=mailbox.url.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { parseMail, type ParsedMail } from './mail-parse';

export { extractLinks } from './mail-parse';

export interface ReceivedMail extends ParsedMail {
  /** Envelope recipients (RCPT TO), lower-cased. */
  recipients: string[];
  raw: string;
}

export interface WaitForMailOptions {
  /** An envelope recipient or To address (case-insensitive). */
  to: string;
  /** Substring of, or pattern for, the subject. */
  subject?: string | RegExp;
  timeoutMs?: number;
}

export interface Mailbox {
  /** `smtp://127.0.0.1:<port>`: hand it to the server as SMTP_URL. */
  url: string;
  port: number;
  /** Every mail received so far, oldest first. */
  messages(): ReceivedMail[];
  /**
   * Resolves with the oldest matching mail that no earlier waitForMail returned, waiting for it
   * when it has not arrived yet; so two waits for the same address get two different mails.
   */
  waitForMail(options: WaitForMailOptions): Promise<ReceivedMail>;
  close(): Promise<void>;
}

const matches = (mail: ReceivedMail, { to, subject }: WaitForMailOptions) => {
  const address = to.toLowerCase();
  const toMatches =
    mail.recipients.includes(address) || mail.to.some((entry) => entry.toLowerCase() === address);
  const subjectMatches =
    subject === undefined ||
    (typeof subject === 'string' ? mail.subject.includes(subject) : subject.test(mail.subject));
  return toMatches && subjectMatches;
};

/** Starts an SMTP server on 127.0.0.1 on a free port: no TLS, authentication optional. */
export async function startMailbox(): Promise<Mailbox> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters = new Set<() => void>();

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 25 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
        received.push({ ...parseMail(raw), recipients, raw: raw.toString('utf8') });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    smtp.server.once('error', reject);
    smtp.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = smtp.server.address() as AddressInfo;

  const take = (options: WaitForMailOptions) => {
    const mail = received.find((candidate) => !taken.has(candidate) && matches(candidate, options));
    if (mail) taken.add(mail);
    return mail;
  };

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages: () => [...received],
    waitForMail(options) {
      // As long as an expectation may wait (playwright.config.ts).
      const { timeoutMs = 30_000 } = options;
      const found = take(options);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const wake = () => {
          const mail = take(options);
          if (!mail) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          const seen = received.map((mail) => `  to ${mail.recipients.join(', ')}: ${mail.subject}`);
          reject(
            new Error(
              `No mail to ${options.to}${options.subject ? ` about ${String(options.subject)}` : ''} ` +
                `within ${timeoutMs} ms. Received:\n${seen.join('\n') || '  (nothing)'}`,
            ),
          );
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
