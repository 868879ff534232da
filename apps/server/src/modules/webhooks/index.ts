export { dealActivatedEvent, subuserLimitReachedEvent } from "./account-events.ts";
export type { RaisedEvent } from "./outbox.ts";
export { default as webhooksPlugin } from "./plugin.ts";
export type { WebhookService } from "./service.ts";
