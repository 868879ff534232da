/**
 * Every localStorage key the dashboard uses (docs/product.md#data-shapes), in one place so logout and tests agree.
 * Later features read their flags through these names instead of inventing new ones.
 */
export const STORAGE_KEYS = {
  /** SPEC's membership-provider token: the app token {token, exp} issued by POST /auth/magic/verify. */
  appToken: "bytetoll.token",
  step1Completed: "bytetoll.step1-completed",
  step3Completed: "bytetoll.step3-completed",
  stickySession: "bytetoll.sticky-session",
  /** The sticky-session id itself, kept while sticky is on so a copied username still matches after a reload. */
  stickySessionId: "bytetoll.sticky-session-id",
  /** The sticky session's lifetime in minutes, kept beside its id so both survive a reload. */
  sessionMinutes: "bytetoll.session-minutes",
  /** The chosen exit country, so a reload shows the username that was copied. */
  exitCountry: "bytetoll.exit-country",
  /** The exit city typed on Connect (`-city-`), kept like the country. */
  exitCity: "bytetoll.exit-city",
  intelligence: "bytetoll.intelligence",
  enableCredentialsApi: "bytetoll.enable-credentials-api",
  step1Collapsed: "bytetoll.step1-collapsed",
  /** Get started: the proxy credentials were copied on Connect. */
  credentialsCopied: "bytetoll.get-started-credentials-copied",
  /** Get started: a Test Connection succeeded. */
  connectionTested: "bytetoll.get-started-connection-tested",
  /** Get started: the checklist is folded away. */
  getStartedCollapsed: "bytetoll.get-started-collapsed",
  /** The prefilled anonymous credentials a login link was asked for with, until its callback. */
  pendingCredentialClaim: "bytetoll.pending-credential-claim",
} as const;
