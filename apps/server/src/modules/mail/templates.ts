import type { Mail } from './service.ts';

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function layout(title: string, intro: string, action: string, link: string, outro: string): string {
  return `<!doctype html><html><body style="margin:0;background:#f4f5f9;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1f2330">
<table width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table width="480" cellpadding="0" cellspacing="0" style="background:#fff;border-radius:12px;padding:32px">
<tr><td style="font-size:20px;font-weight:700;color:#4c3bcf;padding-bottom:16px">Flywheel</td></tr>
<tr><td style="font-size:18px;font-weight:600;padding-bottom:8px">${escape(title)}</td></tr>
<tr><td style="font-size:15px;line-height:22px;padding-bottom:24px">${escape(intro)}</td></tr>
<tr><td style="padding-bottom:24px"><a href="${escape(link)}" style="background:#4c3bcf;color:#fff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block">${escape(action)}</a></td></tr>
<tr><td style="font-size:13px;line-height:20px;color:#6b7080">${escape(outro)}<br>${escape(link)}</td></tr>
</table></td></tr></table></body></html>`;
}

export function verifyEmailMail(to: string, username: string, link: string): Mail {
  const intro = `Hi ${username}, confirm that this is your email address to finish setting up your Flywheel account.`;
  const outro = 'The link works once and expires in 48 hours. If you did not sign up, ignore this email.';
  return {
    to,
    subject: 'Verify your email for Flywheel',
    text: `${intro}\n\nVerify your email: ${link}\n\n${outro}\n`,
    html: layout('Verify your email', intro, 'Verify email', link, outro),
  };
}

export function resetPasswordMail(to: string, username: string, link: string): Mail {
  const intro = `Hi ${username}, someone asked to reset the password of your Flywheel account. Choose a new one here.`;
  const outro =
    'The link works once and expires in 1 hour. If you did not ask for it, ignore this email: your password stays as it is.';
  return {
    to,
    subject: 'Reset your Flywheel password',
    text: `${intro}\n\nReset your password: ${link}\n\n${outro}\n`,
    html: layout('Reset your password', intro, 'Choose a new password', link, outro),
  };
}

/** To an account's owner when someone signs up with its address: the signup answered as for a new address. */
export function signupAttemptMail(to: string, username: string, loginLink: string): Mail {
  const intro = `Hi ${username}, someone just tried to create a Flywheel account with this email address, which already has one. If it was you, log in with your password, or choose a new one with "Forgot password?" on the login page.`;
  const outro = 'If it was not you, ignore this email: nothing was changed and no account was created.';
  return {
    to,
    subject: 'Someone tried to sign up to Flywheel with your email',
    text: `${intro}\n\nLog in: ${loginLink}\n\n${outro}\n`,
    html: layout('You already have an account', intro, 'Log in', loginLink, outro),
  };
}

export function workspaceInvitationMail(
  to: string,
  inviter: string,
  workspace: string,
  link: string,
  days: number,
): Mail {
  const intro = `${inviter} invited you to administer the Slack workspace ${workspace} on Flywheel. Log in, or sign up with this email address, to accept.`;
  const outro = `The invitation is for this email address only and expires in ${days} days. If you do not know ${inviter}, ignore this email.`;
  return {
    to,
    subject: `You are invited to administer ${workspace} on Flywheel`,
    text: `${intro}\n\nOpen Flywheel: ${link}\n\n${outro}\n`,
    html: layout(`Administer ${workspace} on Flywheel`, intro, 'Open Flywheel', link, outro),
  };
}
