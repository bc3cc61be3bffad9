/**
 * Outgoing e-mail (issue 7 item 2): invitations go through nodemailer to SMTP_URL; without it they
 * are written to the outbox in DATA_DIR/outbox, which administrators read in the app.
 */
import type { Config } from '../config';

/** One message to send. Text is required; html is optional. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** A message as stored in the outbox. `created_at` is ISO 8601 UTC. */
export interface OutboxMessage extends MailMessage {
  id: string;
  from: string;
  created_at: string;
}

/** Sends mail; `send` resolves once the message is accepted by the server or written to the outbox. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * The mailer for a configuration (one per config object).
 * @throws Error until the mail work of issue 7 lands
 */
export function mailerFor(_config: Config): Mailer {
  return {
    send() {
      return Promise.reject(new Error('Mail is not set up yet'));
    },
  };
}

/** The outbox's messages, newest first. */
export function listOutbox(_config: Config): Promise<OutboxMessage[]> {
  return Promise.resolve([]);
}
