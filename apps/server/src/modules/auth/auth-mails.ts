import type { Mail } from '../../lib/mailer';

const escapeHtml = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

interface LinkMail {
  productName: string;
  to: string;
  name: string;
  subject: string;
  intro: string;
  action: string;
  url: string;
  outro: string;
}

/** A plain, readable mail with one action link, as HTML and text. */
function linkMail(mail: LinkMail): Mail {
  const greeting = mail.name ? `Hello ${mail.name},` : 'Hello,';
  const text = [
    greeting,
    '',
    mail.intro,
    '',
    `${mail.action}: ${mail.url}`,
    '',
    mail.outro,
    '',
    `— ${mail.productName}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family: Helvetica, Arial, sans-serif; font-size: 15px; color: #222; max-width: 560px">
<h2 style="font-size: 18px">${escapeHtml(mail.productName)}</h2>
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(mail.intro)}</p>
<p><a href="${escapeHtml(mail.url)}" style="display: inline-block; padding: 10px 16px; background: #1c7ed6; color: #fff; text-decoration: none; border-radius: 4px">${escapeHtml(mail.action)}</a></p>
<p style="font-size: 13px; color: #555">If the button does not work, copy this address into your browser:<br>${escapeHtml(mail.url)}</p>
<p style="font-size: 13px; color: #555">${escapeHtml(mail.outro)}</p>
</body></html>`;
  return { to: mail.to, subject: `${mail.productName}: ${mail.subject}`, text, html };
}

export const verificationMail = (productName: string, to: string, name: string, url: string) =>
  linkMail({
    productName,
    to,
    name,
    subject: 'verify your email address',
    intro: `Please confirm that ${to} is your email address to finish setting up your ${productName} account.`,
    action: 'Verify email address',
    url,
    outro: 'If you did not create an account, you can ignore this email.',
  });

export const resetPasswordMail = (productName: string, to: string, name: string, url: string) =>
  linkMail({
    productName,
    to,
    name,
    subject: 'reset your password',
    intro: `Someone asked to reset the password of your ${productName} account. The link works once and expires in 1 hour.`,
    action: 'Choose a new password',
    url,
    outro: 'If you did not ask for this, you can ignore this email: your password stays as it is.',
  });

export const invitationMail = (
  productName: string,
  to: string,
  name: string,
  tenantName: string,
  url: string,
) =>
  linkMail({
    productName,
    to,
    name,
    subject: `you are invited to ${tenantName}`,
    intro: `You have been given an account of ${tenantName} on ${productName}. Choose a password to start.`,
    action: 'Set your password',
    url,
    outro:
      'The link works once and expires in 72 hours. If it has expired, use "Forgot password" on the sign-in page.',
  });
