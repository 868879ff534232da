/**
 * For the PHP tests: starts a running install (API, gateway, origin, fresh database), prints one
 * JSON line describing it, and stops it when its standard input closes.
 */
import { ADMIN_TOKEN, startRunningInstall } from "../../../apps/server/test/helpers/running-install.ts";

const install = await startRunningInstall();
const apiToken = await install.apiToken("php-user@example.com");
process.stdout.write(
  `${JSON.stringify({ url: install.url, api_token: apiToken, admin_token: ADMIN_TOKEN, origin_url: install.originUrl })}\n`,
);
process.stdin.resume();
process.stdin.on("end", async () => {
  await install.close();
  process.exit(0);
});
