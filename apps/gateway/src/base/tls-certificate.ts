import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * A self-signed certificate for 8443 when none is configured, made by the `openssl` binary (no
 * package download). Kept in `{dataDir}/gateway-tls` so clients that pinned it keep working
 * across restarts; without a data directory it lives only for this process.
 */
export async function selfSignedCertificate(
  dataDir: string | undefined,
): Promise<{ cert: string; key: string }> {
  const dir = dataDir ? join(dataDir, "gateway-tls") : mkdtempSync(join(tmpdir(), "bytetoll-tls-"));
  const certPath = join(dir, "cert.pem");
  const keyPath = join(dir, "key.pem");
  if (!existsSync(certPath) || !existsSync(keyPath)) {
    mkdirSync(dir, { recursive: true });
    await run("openssl", [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "825",
      "-subj",
      "/CN=ByteToll gateway",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "-keyout",
      keyPath,
      "-out",
      certPath,
    ]);
  }
  const pair = { cert: readFileSync(certPath, "utf8"), key: readFileSync(keyPath, "utf8") };
  if (!dataDir) rmSync(dir, { recursive: true, force: true });
  return pair;
}
