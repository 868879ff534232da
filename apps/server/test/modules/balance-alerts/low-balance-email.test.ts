import { BALANCE_UPDATED_EVENT, type BalanceUpdatedEvent, ordersChannel } from "@bytetoll/contracts";
import { CHANGES_CHANNEL } from "@bytetoll/db";
import type { Socket } from "socket.io-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { connectRealtime } from "../../helpers/realtime-client.ts";
import { bearer } from "../../helpers/sign-in.ts";
import { type SmtpInbox, signInOverSmtp, startSmtpInbox } from "../../helpers/smtp-inbox.ts";
import { createTestApp, TEST_APP_URL, type TestApp } from "../../helpers/test-app.ts";
import { customerWithoutEmail } from "../orders/helpers.ts";

const GB = 1e9;

let inbox: SmtpInbox;
let first: TestApp;
let second: TestApp;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  const smtp = { SMTP_URL: inbox.url, MAIL_FROM: "ByteToll <alerts@bytetoll.test>" };
  first = await createTestApp(smtp);
  // A second server instance over the same database: both hear every balance change.
  second = await createTestApp(smtp, { database: first.database });
  for (const instance of [first, second]) await instance.app.listen({ port: 0, host: "127.0.0.1" });
});
const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(async () => {
  await second?.close();
  await first?.close();
  await inbox?.close();
});

const profile = (token: string) =>
  first.app.inject({ method: "GET", url: "/account/profile", headers: bearer(token) });
const patchProfile = (token: string, payload: object) =>
  first.app.inject({ method: "PATCH", url: "/account/profile", headers: bearer(token), payload });

/** Any writer's balance change (gateway flush, payment, operator SQL) reaches the feed the same way. */
const setBalance = (userId: string, bytes: number) =>
  first.database.query("UPDATE users SET balance_bytes = $2 WHERE id = $1", [userId, bytes]);

/**
 * Each instance handles a user's balance changes one run at a time; every run both pushes
 * `balance.updated` to the user's sockets on that instance and checks for the e-mail.
 * `settled(bytes)` waits, on a socket per instance, for a push of `bytes` (a run that saw it) and
 * then for one more push (a later run, which starts only once that one, e-mail included, is
 * over). A nudge on the change feed, the message any balance change sends, makes each of those
 * runs happen without changing anything. Then an e-mail the balance would have caused is sent.
 */
async function watchBalance(user: { id: string; token: string }) {
  const pushes = await Promise.all(
    [first, second].map(async (instance) => {
      const socket = await connectRealtime(instance.app, user.token);
      sockets.push(socket);
      const seen: number[] = [];
      socket.on(BALANCE_UPDATED_EVENT, (event: BalanceUpdatedEvent) => seen.push(event.balance_bytes));
      await socket.timeout(5_000).emitWithAck("subscribe", { channel: ordersChannel(user.id) });
      return seen;
    }),
  );
  const checked = pushes.map(() => 0);
  const nudge = () => first.database.query("SELECT pg_notify($1, $2)", [CHANGES_CHANNEL, `user:${user.id}`]);
  return async function settled(bytes: number): Promise<void> {
    const saw = pushes.map(() => -1);
    await nudge();
    await expect
      .poll(
        () =>
          pushes.every((seen, i) => {
            saw[i] = seen.indexOf(bytes, checked[i]);
            return saw[i] !== -1;
          }),
        { timeout: 5_000, interval: 20 },
      )
      .toBe(true);
    await nudge();
    await expect
      .poll(() => pushes.every((seen, i) => seen.length > saw[i]! + 1), { timeout: 5_000, interval: 20 })
      .toBe(true);
    pushes.forEach((seen, i) => {
      checked[i] = seen.length;
    });
  };
}

async function lowBalanceMails(email: string) {
  return inbox.to(email).filter((mail) => mail.body.includes("balance is low"));
}

describe("the low-balance threshold in Profile", () => {
  it("defaults to 1 GB, can be changed or turned off, and refuses nonsense with a message", async () => {
    const user = await signInOverSmtp(first.app, inbox, "threshold@example.com");
    expect((await profile(user.token)).json()).toEqual({
      success: true,
      data: {
        id: user.id,
        email: "threshold@example.com",
        refund_address: null,
        low_balance_threshold_gb: 1,
        is_operator: false,
        second_factor: false,
        operator_factor_missing: false,
      },
    });

    const raised = await patchProfile(user.token, { low_balance_threshold_gb: 2.5 });
    expect(raised.statusCode).toBe(200);
    expect(raised.json().data.low_balance_threshold_gb).toBe(2.5);
    // Setting the threshold leaves the refund address alone, and the other way round.
    await patchProfile(user.token, { refund_address: "0x52908400098527886E0F7030069857D2E4169EE7" });
    expect((await profile(user.token)).json().data).toMatchObject({
      refund_address: "0x52908400098527886E0F7030069857D2E4169EE7",
      low_balance_threshold_gb: 2.5,
    });
    expect((await patchProfile(user.token, { low_balance_threshold_gb: null })).json().data).toMatchObject({
      refund_address: "0x52908400098527886E0F7030069857D2E4169EE7",
      low_balance_threshold_gb: null,
    });

    for (const [value, message] of [
      [0, "low_balance_threshold_gb must be at least 0.01."],
      [-1, "low_balance_threshold_gb must be at least 0.01."],
      [100_001, "low_balance_threshold_gb must be at most 100000."],
      ["1", "low_balance_threshold_gb must be a number of GB (or null to turn the alert off)."],
    ] as const) {
      const refused = await patchProfile(user.token, { low_balance_threshold_gb: value });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ success: false, message });
    }
    const empty = await patchProfile(user.token, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain("Send refund_address, low_balance_threshold_gb or both.");
    expect((await profile(user.token)).json().data.low_balance_threshold_gb).toBeNull();
  });

  it("answers 401 without a token", async () => {
    expect((await first.app.inject({ method: "GET", url: "/account/profile" })).statusCode).toBe(401);
  });
});

describe("the low-balance e-mail over real SMTP, with two server instances", () => {
  it("sends one e-mail per crossing below the threshold, and again only after the balance went back above it", async () => {
    const user = await signInOverSmtp(first.app, inbox, "crossing@example.com");
    const settled = await watchBalance(user);
    await setBalance(user.id, 1.5 * GB);
    await settled(1.5 * GB);
    expect(await lowBalanceMails("crossing@example.com")).toHaveLength(0);

    await setBalance(user.id, 0.8 * GB);
    await expect.poll(() => lowBalanceMails("crossing@example.com"), { timeout: 5_000 }).toHaveLength(1);
    const [mail] = await lowBalanceMails("crossing@example.com");
    expect(mail!.body).toContain("Subject: You have 0.8 GB of data left\r\n");
    expect(mail!.body).toContain("0.8 GB of data left");
    expect(mail!.body).toContain(`<a href="${TEST_APP_URL}/">Buy Data</a>`);

    // Still below, and further down: no repeat.
    await setBalance(user.id, 0.5 * GB);
    await settled(0.5 * GB);
    await setBalance(user.id, 0.2 * GB);
    await settled(0.2 * GB);
    expect(await lowBalanceMails("crossing@example.com")).toHaveLength(1);

    // Back above (a purchase), then below again: the next crossing is told once more.
    await setBalance(user.id, 3 * GB);
    await settled(3 * GB);
    await setBalance(user.id, 0.1 * GB);
    await expect.poll(() => lowBalanceMails("crossing@example.com"), { timeout: 5_000 }).toHaveLength(2);
    expect((await lowBalanceMails("crossing@example.com"))[1]!.body).toContain("0.1 GB of data left");
    await settled(0.1 * GB);
    expect(await lowBalanceMails("crossing@example.com")).toHaveLength(2);
  });

  it("follows the customer's own threshold and sends nothing when it is off", async () => {
    const custom = await signInOverSmtp(first.app, inbox, "custom@example.com");
    const off = await signInOverSmtp(first.app, inbox, "off@example.com");
    await patchProfile(custom.token, { low_balance_threshold_gb: 5 });
    await patchProfile(off.token, { low_balance_threshold_gb: null });
    const customSettled = await watchBalance(custom);
    const offSettled = await watchBalance(off);

    // A purchase takes the customer above their own threshold, then usage brings them below it.
    await setBalance(custom.id, 6 * GB);
    await customSettled(6 * GB);
    await setBalance(custom.id, 4 * GB);
    await setBalance(off.id, 0);
    await expect.poll(() => lowBalanceMails("custom@example.com"), { timeout: 5_000 }).toHaveLength(1);
    await offSettled(0);
    expect(await lowBalanceMails("off@example.com")).toHaveLength(0);
  });

  it("does not alert a new account holding just the free 1 GB (the default threshold) when its first requests use some of it", async () => {
    const user = await signInOverSmtp(first.app, inbox, "free-grant@example.com");
    const [granted] = await first.database.query<{ balance_bytes: string | number }>(
      "SELECT balance_bytes FROM users WHERE id = $1",
      [user.id],
    );
    expect(Number(granted!.balance_bytes)).toBe(1 * GB);
    const settled = await watchBalance(user);
    await settled(1 * GB);
    // The first request through the proxy used 20 KB; later ones more.
    await setBalance(user.id, 1 * GB - 20_000);
    await settled(1 * GB - 20_000);
    await setBalance(user.id, 0.6 * GB);
    await settled(0.6 * GB);
    // Back exactly at the threshold is still not above it.
    await setBalance(user.id, 1 * GB);
    await settled(1 * GB);
    await setBalance(user.id, 0.9 * GB);
    await settled(0.9 * GB);
    expect(await lowBalanceMails("free-grant@example.com")).toHaveLength(0);

    // Once a purchase has taken the balance above the threshold, falling below it is a crossing.
    await setBalance(user.id, 1.2 * GB);
    await settled(1.2 * GB);
    await setBalance(user.id, 0.7 * GB);
    await expect.poll(() => lowBalanceMails("free-grant@example.com"), { timeout: 5_000 }).toHaveLength(1);
  });

  it("re-arms the alert when the customer lowers the threshold below the balance, so the next fall below it is told", async () => {
    const user = await signInOverSmtp(first.app, inbox, "lowered@example.com");
    const settled = await watchBalance(user);
    // Exactly at the default 1 GB threshold: not armed. The customer lowers it to 0.98 GB.
    await settled(1 * GB);
    expect((await patchProfile(user.token, { low_balance_threshold_gb: 0.98 })).statusCode).toBe(200);
    await setBalance(user.id, 0.97 * GB);
    await expect.poll(() => lowBalanceMails("lowered@example.com"), { timeout: 5_000 }).toHaveLength(1);
    expect((await lowBalanceMails("lowered@example.com"))[0]!.body).toContain("0.97 GB of data left");

    // Raising it to the balance (or above) is no crossing and arms nothing: no e-mail until the
    // balance has been above the new threshold.
    await setBalance(user.id, 2 * GB);
    await settled(2 * GB);
    await patchProfile(user.token, { low_balance_threshold_gb: 2 });
    await setBalance(user.id, 1.5 * GB);
    await settled(1.5 * GB);
    expect(await lowBalanceMails("lowered@example.com")).toHaveLength(1);
  });

  it("does not alert an account that has never been above its threshold (FREE_GB off, a first small purchase)", async () => {
    const user = await customerWithoutEmail(
      first.database,
      first.config.JWT_SECRET,
      "never-above@example.com",
    );
    const settled = await watchBalance(user);
    await setBalance(user.id, 0.5 * GB);
    await settled(0.5 * GB);
    expect(await lowBalanceMails("never-above@example.com")).toHaveLength(0);
    await setBalance(user.id, 2 * GB);
    await settled(2 * GB);
    await setBalance(user.id, 0.4 * GB);
    await expect.poll(() => lowBalanceMails("never-above@example.com"), { timeout: 5_000 }).toHaveLength(1);
  });
});
