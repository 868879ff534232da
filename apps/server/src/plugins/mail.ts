import { type Database, schema } from "@bytetoll/db";
import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import type { Config } from "../config.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link a person should follow (shown on the dev outbox page). */
  link: string | null;
}

export interface Mailer {
  kind: "smtp" | "outbox";
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/** Real delivery through nodemailer's SMTP transport (SMTP_URL, e.g. smtps://user:pass@host). */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: "smtp",
    async send(message) {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    },
    async close() {
      transport.close();
    },
  };
}

/**
 * The dev outbox used when no SMTP_URL is set: the message is stored (GET /dev/outbox shows it)
 * and its link printed, so a fresh `npm start` can sign in with no mail server.
 */
export function createOutboxMailer(database: Database, print: (line: string) => void): Mailer {
  return {
    kind: "outbox",
    async send(message) {
      await database.db.insert(schema.outboxMessages).values({
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        link: message.link,
      });
      if (message.link) print(`Login link for ${message.to}: ${message.link}`);
    },
    async close() {},
  };
}

/** Prints through the app's logger, so LOG_FORMAT=json gets a JSON line like every other and
 * pretty a readable one; at info whatever LOG_LEVEL is, as without SMTP it is how a person signs in. */
export function printThroughLog(log: FastifyBaseLogger): (line: string) => void {
  const always = log.child({}, { level: "info" });
  return (line) => always.info(line);
}

export function createMailer(config: Config, database: Database, log: FastifyBaseLogger): Mailer {
  return config.SMTP_URL
    ? createSmtpMailer(config.SMTP_URL, config.MAIL_FROM)
    : createOutboxMailer(database, printThroughLog(log));
}
