// What other modules may use of proxy credentials: sealing a proxy password and making one.

export { createPasswordSealer, generatePassword, type PasswordSealer } from "./credential-secrets.ts";
export { createCredentialsService } from "./service.ts";
