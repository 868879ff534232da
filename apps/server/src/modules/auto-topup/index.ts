/** Auto top-up by card: the plugin (routes, balance listener, sweep), and what the Stripe webhook
 * tells it (a card page in setup mode completed). */
export { default as autoTopupPlugin } from "./plugin.ts";
