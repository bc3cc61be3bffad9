/**
 * The mail outbox's shapes: without SMTP_URL the server keeps each e-mail as one
 * JSON file in DATA_DIR/outbox, and the firm's administrators read them under Admin → Outbox.
 * Times are ISO 8601 UTC.
 */

/** One outbox message as listed (GET REST/private/outbox): without its text. */
export interface OutboxSummaryDto {
  id: string;
  /** The firm the message was sent for: only its administrators see it. */
  database_id: string;
  from: string;
  to: string;
  subject: string;
  created_at: string;
}

/** One outbox message with its text (GET REST/private/outbox/{id}), as stored. */
export interface OutboxMessageDto extends OutboxSummaryDto {
  text: string;
  html?: string;
}
