import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { StoredPasskey } from "./repository.ts";

/** The relying party is the dashboard: its origin and host name come from APP_URL. */
export function relyingParty(appUrl: string) {
  const url = new URL(appUrl);
  return { rpID: url.hostname, origin: url.origin, rpName: "ByteToll" };
}
type RelyingParty = ReturnType<typeof relyingParty>;

const transportsOf = (passkey: StoredPasskey) => passkey.transports as AuthenticatorTransportFuture[];

/** WebAuthn's two ceremonies, over the @simplewebauthn/server checks. */
export function passkeyCeremonies(rp: RelyingParty) {
  return {
    registrationOptions(userId: string, email: string, existing: StoredPasskey[]) {
      return generateRegistrationOptions({
        rpName: rp.rpName,
        rpID: rp.rpID,
        userName: email,
        userID: new TextEncoder().encode(userId),
        attestationType: "none",
        excludeCredentials: existing.map((passkey) => ({
          id: passkey.credential_id,
          transports: transportsOf(passkey),
        })),
        authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
      });
    },

    /** The new credential, or null when the response does not answer the challenge. */
    async verifyRegistration(response: unknown, expectedChallenge: string) {
      try {
        const result = await verifyRegistrationResponse({
          response: response as RegistrationResponseJSON,
          expectedChallenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.rpID,
          requireUserVerification: false,
        });
        if (!result.verified) return null;
        const { credential } = result.registrationInfo;
        return {
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString("base64url"),
          counter: credential.counter,
          transports: credential.transports ?? [],
        };
      } catch {
        return null;
      }
    },

    authenticationOptions(passkeys: StoredPasskey[]) {
      return generateAuthenticationOptions({
        rpID: rp.rpID,
        allowCredentials: passkeys.map((passkey) => ({
          id: passkey.credential_id,
          transports: transportsOf(passkey),
        })),
        userVerification: "preferred",
      });
    },

    /** The counter to store, or null when the assertion is not this passkey's answer. */
    async verifyAuthentication(response: unknown, expectedChallenge: string, passkey: StoredPasskey) {
      try {
        const result = await verifyAuthenticationResponse({
          response: response as AuthenticationResponseJSON,
          expectedChallenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.rpID,
          credential: {
            id: passkey.credential_id,
            publicKey: new Uint8Array(Buffer.from(passkey.public_key, "base64url")),
            counter: Number(passkey.counter),
            transports: transportsOf(passkey),
          },
          requireUserVerification: false,
        });
        return result.verified ? result.authenticationInfo.newCounter : null;
      } catch {
        return null;
      }
    },
  };
}
