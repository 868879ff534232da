import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface TestCa {
  /** The CA's certificate (PEM): what an operator would put in UPSTREAM_CA_FILE. */
  cert: string;
  /** Issues a server certificate for the given subjectAltName (`DNS:localhost,IP:127.0.0.1`). */
  issue(subjectAltName: string): Promise<{ cert: string; key: string }>;
}

const ecKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

/** A throw-away private CA made with the `openssl` binary, as tls-certificate.ts makes the
 * gateway's own self-signed pair: nothing is trusted by the system, so tests prove trust comes
 * from the gateway's configuration alone. */
export async function createTestCa(): Promise<TestCa> {
  const dir = mkdtempSync(join(tmpdir(), "bytetoll-test-ca-"));
  try {
    await run("openssl", [
      "req",
      "-x509",
      ...ecKey,
      "-days",
      "2",
      "-subj",
      "/CN=ByteToll test CA",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
      "-keyout",
      join(dir, "ca.key"),
      "-out",
      join(dir, "ca.pem"),
    ]);
    const caKey = readFileSync(join(dir, "ca.key"), "utf8");
    const caCert = readFileSync(join(dir, "ca.pem"), "utf8");
    let serial = 0;
    return {
      cert: caCert,
      async issue(subjectAltName) {
        serial += 1;
        const work = mkdtempSync(join(tmpdir(), "bytetoll-test-cert-"));
        const at = (name: string) => join(work, name);
        try {
          writeFileSync(at("ca.key"), caKey);
          writeFileSync(at("ca.pem"), caCert);
          writeFileSync(
            at("ext.cnf"),
            [
              "basicConstraints=critical,CA:FALSE",
              "keyUsage=critical,digitalSignature",
              "extendedKeyUsage=serverAuth",
              `subjectAltName=${subjectAltName}`,
            ].join("\n"),
          );
          await run("openssl", [
            "req",
            "-new",
            ...ecKey,
            "-subj",
            "/CN=ByteToll test upstream",
            "-keyout",
            at("server.key"),
            "-out",
            at("server.csr"),
          ]);
          await run("openssl", [
            "x509",
            "-req",
            "-in",
            at("server.csr"),
            "-CA",
            at("ca.pem"),
            "-CAkey",
            at("ca.key"),
            "-set_serial",
            String(serial),
            "-days",
            "2",
            "-extfile",
            at("ext.cnf"),
            "-out",
            at("server.pem"),
          ]);
          return {
            cert: readFileSync(at("server.pem"), "utf8"),
            key: readFileSync(at("server.key"), "utf8"),
          };
        } finally {
          rmSync(work, { recursive: true, force: true });
        }
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
