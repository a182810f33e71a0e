import MailComposer from 'nodemailer/lib/mail-composer';
import { describe, expect, it } from 'vitest';
import { decodeQuotedPrintable, decodeWords, extractLinks, parseAddresses, parseMail } from './mail-parse';

const crlf = (lines: string[]) => lines.join('\r\n');

describe('parseMail', () => {
  it('reads a plain message with folded, encoded headers', () => {
    const mail = parseMail(
      crlf([
        'From: "Omnibot" <no-reply@omnibot.test>',
        'To: "Doe, Jane" <jane@example.com>,',
        ' bob@example.com',
        'Subject: =?UTF-8?B?VsOpcmlmeQ==?=',
        '  =?UTF-8?Q?_your_e-mail_=E2=9C=93?=',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Hello Jane,',
        'open https://app.test/verify?token=abc.',
        '',
      ]),
    );
    expect(mail.to).toEqual(['jane@example.com', 'bob@example.com']);
    expect(mail.from).toBe('no-reply@omnibot.test');
    expect(mail.subject).toBe('Vérify your e-mail ✓');
    expect(mail.text).toBe('Hello Jane,\nopen https://app.test/verify?token=abc.\n');
    expect(mail.html).toBe('');
  });

  it('reads multipart/alternative inside multipart/mixed, with quoted-printable, base64 and an attachment', () => {
    const html = '<p>Reset: <a href="https://app.test/reset?token=x&amp;next=%2F">link</a></p>';
    const raw = crlf([
      'To: ana@example.com',
      'Subject: Reset',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="outer;b"',
      '',
      'This is a multi-part message.',
      '--outer;b',
      'Content-Type: multipart/alternative; boundary=inner',
      '',
      '--inner',
      'Content-Type: text/plain; charset="iso-8859-1"',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Gr=FC=DFe, a long line that is soft-=',
      'broken here =3D done  ',
      '--inner',
      'Content-Type: text/html; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      ...(Buffer.from(html)
        .toString('base64')
        .match(/.{1,20}/g) ?? []),
      '--inner--',
      '',
      '--outer;b',
      'Content-Type: application/pdf; name="r.pdf"',
      'Content-Disposition: attachment; filename="report =?UTF-8?Q?=C3=A9t=C3=A9?=.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('%PDF-1.4').toString('base64'),
      '--outer;b--',
      'epilogue',
    ]);
    const mail = parseMail(Buffer.from(raw, 'latin1'));
    expect(mail.text).toBe('Grüße, a long line that is soft-broken here = done');
    expect(mail.html).toBe(html);
    expect(mail.attachments).toEqual([
      { filename: 'report été.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.4') },
    ]);
  });

  it('accepts bare LF line endings and a missing Content-Type', () => {
    const mail = parseMail('To: x@y.io\nSubject: Hi\n\nline one\nline two');
    expect(mail.subject).toBe('Hi');
    expect(mail.text).toBe('line one\nline two');
  });

  it('reads what nodemailer sends', async () => {
    const text = `Bonjour Zoë,\n${'a long line of text that nodemailer will wrap '.repeat(4)}\nhttps://app.test/a?b=c&d=é`;
    const html = `<p>Bonjour Zoë, <a href="https://app.test/a?b=c&amp;d=%C3%A9">go</a></p>`;
    const raw = await new MailComposer({
      from: 'Omnibot <no-reply@omnibot.test>',
      to: 'Zoë Ünal <zoe@example.com>',
      subject: 'Vérifiez votre adresse ✓',
      text,
      html,
      attachments: [{ filename: 'notes.txt', content: 'attached' }],
    })
      .compile()
      .build();
    const mail = parseMail(raw);
    expect(mail.to).toEqual(['zoe@example.com']);
    expect(mail.subject).toBe('Vérifiez votre adresse ✓');
    expect(mail.text).toBe(text);
    expect(mail.html).toBe(html);
    expect(mail.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([
      ['notes.txt', 'attached'],
    ]);
  });
});

describe('pieces', () => {
  it('decodes encoded words in several charsets', () => {
    expect(decodeWords('=?ISO-8859-1?Q?Caf=E9?= au lait')).toBe('Café au lait');
    expect(decodeWords('=?utf-8?b?w6k=?= =?utf-8?b?w6k=?=')).toBe('éé');
    expect(decodeWords('plain text')).toBe('plain text');
  });

  it('decodes quoted-printable soft breaks and escapes', () => {
    expect(decodeQuotedPrintable('a=3Db=\r\nc =\nd').toString()).toBe('a=bc d');
  });

  it('parses address lists with quoted commas and groups', () => {
    expect(parseAddresses('"Smith, J" <j@x.io>, k@y.io, undisclosed:;')).toEqual(['j@x.io', 'k@y.io']);
  });
});

describe('extractLinks', () => {
  it('finds links in text, without trailing punctuation, once each', () => {
    expect(
      extractLinks('Open https://a.test/x?y=1. Or (https://b.test/z), again https://a.test/x?y=1!'),
    ).toEqual(['https://a.test/x?y=1', 'https://b.test/z']);
  });

  it('finds links in HTML attributes and decodes entities', () => {
    expect(extractLinks('<a href="http://127.0.0.1:3000/r?t=1&amp;u=2">x</a>')).toEqual([
      'http://127.0.0.1:3000/r?t=1&u=2',
    ]);
  });
});
