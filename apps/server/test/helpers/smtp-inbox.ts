import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import type { App } from "../../src/types.ts";

export interface ReceivedMail {
  /** The envelope sender (MAIL FROM). */
  from: string | undefined;
  to: string[];
  /** The message source with quoted-printable soft breaks and escapes undone. */
  body: string;
}

/** Undoes quoted-printable soft line breaks and escapes so links and figures can be read back. */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A real SMTP server (smtp-server) on a free loopback port that keeps what it receives. */
export async function startSmtpInbox() {
  const received: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const from = session.envelope.mailFrom;
        received.push({
          from: from ? from.address : undefined,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          body: decodeQuotedPrintable(Buffer.concat(chunks).toString("utf8")),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    /** Every message received, oldest first. */
    received: received as readonly ReceivedMail[],
    /** Messages to `address`, oldest first. */
    to: (address: string) => received.filter((mail) => mail.to.includes(address)),
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
export type SmtpInbox = Awaited<ReturnType<typeof startSmtpInbox>>;

/** Signs in with the magic link the app e-mailed to `email`; returns the app token and user id. */
export async function signInOverSmtp(app: App, inbox: SmtpInbox, email: string) {
  const before = inbox.to(email).length;
  const sent = await app.inject({ method: "POST", url: "/auth/login", payload: { email } });
  if (sent.statusCode !== 200) throw new Error(`login link refused: ${sent.body}`);
  const mail = inbox.to(email)[before];
  const credential = mail?.body.match(/magic_credential=([A-Za-z0-9_-]{43})/)?.[1];
  if (!credential) throw new Error(`no login link reached ${email}`);
  const verified = await app.inject({
    method: "POST",
    url: "/auth/magic/verify",
    payload: { access_token: credential },
  });
  return verified.json().data as { token: string; id: string };
}
