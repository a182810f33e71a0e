import { createTransport } from 'nodemailer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractLinks, startMailbox, type Mailbox } from './smtp';

describe('mailbox', () => {
  let mailbox: Mailbox;
  beforeEach(async () => {
    mailbox = await startMailbox();
  });
  afterEach(async () => {
    await mailbox.close();
  });

  const send = (to: string, subject: string, text: string, html?: string) =>
    createTransport(mailbox.url).sendMail({ from: 'no-reply@omnibot.test', to, subject, text, html });

  it('receives what nodemailer sends over plain SMTP, waiting for mail that is not there yet', async () => {
    const waiting = mailbox.waitForMail({ to: 'Ana@Example.com', subject: 'Verify', timeoutMs: 5000 });
    await send('ana@example.com', 'Verify your e-mail', 'Open http://127.0.0.1:3000/v?t=1.', '<b>hi</b>');
    const mail = await waiting;
    expect(mail.to).toEqual(['ana@example.com']);
    expect(mail.subject).toBe('Verify your e-mail');
    expect(mail.html).toBe('<b>hi</b>');
    expect(extractLinks(mail.text)).toEqual(['http://127.0.0.1:3000/v?t=1']);
    expect(mail.raw).toContain('Subject: Verify your e-mail');
  });

  it('hands each mail out once and filters by recipient and subject', async () => {
    await send('bob@example.com', 'Reset 1', 'one');
    await send('cy@example.com', 'Reset 2', 'two');
    await send('bob@example.com', 'Reset 3', 'three');
    expect((await mailbox.waitForMail({ to: 'bob@example.com' })).text.trim()).toBe('one');
    expect((await mailbox.waitForMail({ to: 'bob@example.com', subject: /Reset \d/ })).text.trim()).toBe(
      'three',
    );
    expect(mailbox.messages()).toHaveLength(3);
  });

  it('times out naming what did arrive', async () => {
    await send('dee@example.com', 'Hello', 'x');
    await expect(mailbox.waitForMail({ to: 'eve@example.com', timeoutMs: 200 })).rejects.toThrow(
      /No mail to eve@example.com within 200 ms[\s\S]*dee@example.com: Hello/,
    );
  });
});
