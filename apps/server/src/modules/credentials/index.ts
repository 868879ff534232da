// What other modules may use of proxy credentials: sealing a proxy password and making one, and
// the operator console's look at an account's credentials.

export { createPasswordSealer, generatePassword, type PasswordSealer } from "./credential-secrets.ts";
export { credentialSummary } from "./operator-reads.ts";
export { createCredentialsService } from "./service.ts";
