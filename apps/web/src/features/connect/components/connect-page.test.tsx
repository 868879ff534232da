import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { STORAGE_KEYS } from "../../../lib/storage-keys.ts";
import { fail, ok, signInWithToken, stubApi, TEST_CONFIG, TEST_USER } from "../../../test/api-stub.ts";
import { renderRoute } from "../../../test/render-route.tsx";
import { collapsedStorageKey } from "./collapsible-card.tsx";
import { STICKY_HINT } from "./credentials-card.tsx";

const CREDENTIALS = {
  username: "btabcdefghij",
  password: "pw_0123456789abcdefghijklm",
  options: { use_sticky: false },
};
const GATEWAY = {
  host: "proxy.example.test",
  ip: "203.0.113.10",
  http_port: 8080,
  https_port: 8443,
  socks_port: 1080,
};
const TOKEN = "bt_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefgh";
const TEST_DATA = {
  ip: "198.51.100.23",
  asn: { org_name: "Example Mobile" },
  country: "DE",
  geo: { city: "Berlin", region_name: "Land Berlin" },
};

function signedIn(overrides: Parameters<typeof stubApi>[0] = {}) {
  signInWithToken();
  return stubApi({
    "GET /auth/session": ok(TEST_USER),
    "GET /gateway": ok(GATEWAY),
    "GET /credentials/latest": ok(CREDENTIALS),
    "GET /account/status": ok({ balance_gb: 5, balance_bytes: 5e9 }),
    "GET /account/api-token": ok({ token: TOKEN }),
    "GET /settings/allowlist": ok({ ips: [], pending: [], your_ip: "198.51.100.9" }),
    "GET /credentials/proxy-list": ok([]),
    "GET /credentials/proxy-list/links": ok([]),
    ...overrides,
  });
}

const usernameField = () => screen.getByRole("textbox", { name: "Username" });

const usernameValue = () => (usernameField() as HTMLInputElement).value;

async function shownUsername(): Promise<string> {
  await waitFor(() => expect(usernameValue()).toMatch(/^btabcdefghij/));
  return usernameValue();
}

describe("Connect page credentials", () => {
  it("shows the account's credentials and adds and removes the username suffixes with the toggles", async () => {
    signedIn();
    const { router } = renderRoute("/connect");
    const user = userEvent.setup();
    expect(await shownUsername()).toBe("btabcdefghij");
    expect(screen.getByRole("textbox", { name: "Password" })).toHaveValue(CREDENTIALS.password);

    await user.click(screen.getByRole("switch", { name: "Sticky session" }));
    expect(usernameValue()).toMatch(/^btabcdefghij-session-[A-Za-z0-9]{8}$/);
    await waitFor(() => expect(router.state.location.search).toContain("ss=true"));
    expect(window.localStorage.getItem(STORAGE_KEYS.stickySession)).toBe("true");

    await user.click(screen.getByRole("switch", { name: "Intelligence" }));
    expect(usernameValue()).toMatch(/^btabcdefghij-session-[A-Za-z0-9]{8}-routing-smart$/);
    await waitFor(() => expect(router.state.location.search).toContain("ai=true"));
    expect(window.localStorage.getItem(STORAGE_KEYS.intelligence)).toBe("true");

    await user.click(screen.getByRole("switch", { name: "Sticky session" }));
    expect(usernameField()).toHaveValue("btabcdefghij-routing-smart");
    await waitFor(() => expect(router.state.location.search).not.toContain("ss="));
    expect(window.localStorage.getItem(STORAGE_KEYS.stickySession)).toBeNull();

    await user.click(screen.getByRole("switch", { name: "Intelligence" }));
    expect(usernameField()).toHaveValue("btabcdefghij");
    expect(window.localStorage.getItem(STORAGE_KEYS.intelligence)).toBeNull();
  });

  it("names the operator's datacenter price per GB beside the Intelligence switch", async () => {
    signedIn({ "GET /config": ok({ ...TEST_CONFIG, dc_price_per_gb_usd: 0.45 }) });
    renderRoute("/connect");
    expect(
      await screen.findByText("Route eligible requests over datacenter proxies ($0.45/GB).", {
        exact: false,
      }),
    ).toBeInTheDocument();
  });

  it("turns the toggles on from the URL and from remembered flags, mirroring each into the other", async () => {
    signedIn();
    window.localStorage.setItem(STORAGE_KEYS.stickySession, "true");
    const { router } = renderRoute("/connect?ai=true&w=1");
    expect(await shownUsername()).toMatch(/^btabcdefghij-session-[A-Za-z0-9]{8}-routing-smart$/);
    expect(screen.getByRole("switch", { name: "Sticky session" })).toHaveAttribute("aria-checked", "true");
    await waitFor(() => expect(router.state.location.search).toContain("ss=true"));
    expect(router.state.location.search).toContain("w=1");
    expect(window.localStorage.getItem(STORAGE_KEYS.intelligence)).toBe("true");
  });

  it("keeps the sticky session id across a reload and rotates it only with New session", async () => {
    signedIn();
    const first = renderRoute("/connect");
    const user = userEvent.setup();
    await shownUsername();
    expect(screen.getByText(STICKY_HINT)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "New session" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("switch", { name: "Sticky session" }));
    const sticky = usernameValue();
    expect(sticky).toMatch(/^btabcdefghij-session-[A-Za-z0-9]{8}$/);
    first.unmount();

    renderRoute("/connect");
    await waitFor(() => expect(usernameValue()).toBe(sticky));

    await user.click(screen.getByRole("button", { name: "New session" }));
    const rotated = usernameValue();
    expect(rotated).toMatch(/^btabcdefghij-session-[A-Za-z0-9]{8}$/);
    expect(rotated).not.toBe(sticky);
    await waitFor(() =>
      expect(window.localStorage.getItem(STORAGE_KEYS.stickySessionId)).toBe(rotated.slice(-8)),
    );

    await user.click(screen.getByRole("switch", { name: "Sticky session" }));
    expect(window.localStorage.getItem(STORAGE_KEYS.stickySessionId)).toBeNull();
    expect(screen.queryByRole("button", { name: "New session" })).not.toBeInTheDocument();
  });

  it("ignores a stored sticky id that is not 8 letters or digits", async () => {
    signedIn();
    window.localStorage.setItem(STORAGE_KEYS.stickySession, "true");
    window.localStorage.setItem(STORAGE_KEYS.stickySessionId, "bad-id!");
    renderRoute("/connect");
    const username = await shownUsername();
    expect(username).toMatch(/^btabcdefghij-session-[A-Za-z0-9]{8}$/);
    await waitFor(() =>
      expect(window.localStorage.getItem(STORAGE_KEYS.stickySessionId)).toBe(username.slice(-8)),
    );
  });

  it("shows the red error box when the credentials cannot be loaded", async () => {
    signedIn({ "GET /credentials/latest": fail(500, "Database is down") });
    renderRoute("/connect");
    expect(await screen.findByText("Error loading credentials: Database is down")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Test Connection" })).toBeDisabled();
  });

  it("gives an anonymous visitor temporary credentials without a token and a Sign In prompt", async () => {
    const api = stubApi({
      "GET /gateway": ok(GATEWAY),
      "GET /credentials/unique": ok({ username: "btanonymous1", password: "temporary-password-123456" }),
    });
    renderRoute("/connect");
    await waitFor(() => expect(usernameField()).toHaveValue("btanonymous1"));
    expect(api.callsTo("GET", "/credentials/unique")[0]?.headers.get("Authorization")).toBeNull();
    expect(api.callsTo("GET", "/credentials/latest")).toHaveLength(0);
    expect(screen.getByText(/These are temporary credentials/)).toBeInTheDocument();
    const signIn = screen.getByRole("link", { name: "Sign In to keep them" });
    expect(signIn).toHaveAttribute("href", "/login");
    expect(screen.getByRole("link", { name: "Sign In to get your API token" })).toBeInTheDocument();
    expect(api.callsTo("GET", "/account/api-token")).toHaveLength(0);
  });

  it("warns a signed-in customer at 0 GB", async () => {
    signedIn({ "GET /account/status": ok({ balance_gb: 0, balance_bytes: 0 }) });
    renderRoute("/connect");
    expect(
      await screen.findByText("Your account has 0 GB of data. Buy more data to continue using your proxy."),
    ).toBeInTheDocument();
  });
});

describe("Test Connection", () => {
  it("tests the shown username through the configured gateway and shows the raw response on demand", async () => {
    const api = signedIn({
      "POST /credentials/test": ok(TEST_DATA, "Connected through the proxy."),
    });
    renderRoute("/connect?ss=true");
    const user = userEvent.setup();
    const username = await shownUsername();
    await user.click(screen.getByRole("button", { name: "Test Connection" }));
    const banner = await screen.findByRole("status");
    expect(banner).toHaveTextContent("Connected through the proxy.");
    expect(api.callsTo("POST", "/credentials/test")[0]?.body).toEqual({
      username,
      password: CREDENTIALS.password,
      proxy_host: "proxy.example.test",
      proxy_port: 8080,
    });
    expect(within(banner).queryByText("Example Mobile")).not.toBeInTheDocument();
    await user.click(within(banner).getByRole("button", { name: "Show raw response" }));
    for (const text of ["Example Mobile", "DE", "Berlin", "Land Berlin"]) {
      expect(within(banner).getByText(text)).toBeInTheDocument();
    }
  });

  it("records a successful test and copied credentials for the dashboard's Get started list, not a failed test", async () => {
    let reply = () => fail(422, "Your balance is used up. Buy more data to continue.");
    signedIn({ "POST /credentials/test": () => reply() });
    renderRoute("/connect");
    const user = userEvent.setup();
    await shownUsername();
    await user.click(screen.getByRole("button", { name: "Test Connection" }));
    await screen.findByRole("alert");
    expect(window.localStorage.getItem(STORAGE_KEYS.connectionTested)).toBeNull();

    reply = () => ok(TEST_DATA, "Connected through the proxy.");
    await user.click(screen.getByRole("button", { name: "Test Connection" }));
    await screen.findByRole("status");
    expect(window.localStorage.getItem(STORAGE_KEYS.connectionTested)).toBe("true");

    expect(window.localStorage.getItem(STORAGE_KEYS.credentialsCopied)).toBeNull();
    await user.click(screen.getByRole("button", { name: "Copy password" }));
    await waitFor(() => expect(window.localStorage.getItem(STORAGE_KEYS.credentialsCopied)).toBe("true"));
  });

  it("shows the error banner with the server's message, or Proxy test failed without one", async () => {
    let reply = () => fail(422, "Your balance is used up. Buy more data to continue.");
    signedIn({ "POST /credentials/test": () => reply() });
    renderRoute("/connect");
    const user = userEvent.setup();
    await shownUsername();
    await user.click(screen.getByRole("button", { name: "Test Connection" }));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("We couldn't connect through this proxy.");
    expect(alert).toHaveTextContent("Your balance is used up. Buy more data to continue.");

    reply = () => new Response("upstream exploded", { status: 502 });
    await user.click(screen.getByRole("button", { name: "Test Connection" }));
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent("Proxy test failed"));
  });

  it("is disabled while the credentials are still loading and while a test runs", async () => {
    let release: (response: Response) => void = () => {};
    signedIn({
      "POST /credentials/test": () =>
        new Promise<Response>((resolve) => {
          release = resolve;
        }),
    });
    renderRoute("/connect");
    const button = await screen.findByRole("button", { name: "Test Connection" });
    expect(button).toBeDisabled();
    await shownUsername();
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.setup().click(button);
    await waitFor(() => expect(screen.getByRole("button", { name: "Testing…" })).toBeDisabled());
    release(ok(TEST_DATA, "Connected through the proxy."));
    await screen.findByRole("status");
  });
});

describe("Example code, API token and cards", () => {
  it("fills the examples with the current credentials and gateway", async () => {
    signedIn();
    renderRoute("/connect?ai=true");
    const user = userEvent.setup();
    const code = await screen.findByTestId("example-code");
    await waitFor(() => expect(code).toHaveTextContent("--proxy-user 'btabcdefghij-routing-smart:"));
    expect(code).toHaveTextContent("--proxy 'http://proxy.example.test:8080'");
    await user.click(screen.getByRole("tab", { name: "Node.js" }));
    expect(screen.getByTestId("example-code")).toHaveTextContent('uri: "http://proxy.example.test:8080"');
    await user.click(screen.getByRole("tab", { name: "Python" }));
    expect(screen.getByTestId("example-code")).toHaveTextContent(
      `http://btabcdefghij-routing-smart:${CREDENTIALS.password}@proxy.example.test:8080`,
    );
  });

  it("wraps the example code on a phone and scrolls it inside the card from sm up", async () => {
    signedIn();
    renderRoute("/connect");
    const block = (await screen.findByTestId("example-code")).closest("pre") as HTMLElement;
    const classes = block.className.split(/\s+/);
    expect(classes).toEqual(expect.arrayContaining(["whitespace-pre-wrap", "break-all", "max-w-full"]));
    expect(classes).toEqual(expect.arrayContaining(["sm:whitespace-pre", "overflow-x-auto"]));
  });

  it("masks the API token after 15 characters and regenerates it after confirmation", async () => {
    const fresh = "bt_NEWTOKEN0123456789abcdefghijklmnopqrstuvw";
    const api = signedIn({ "POST /account/api-token/regenerate": ok({ token: fresh }) });
    renderRoute("/connect");
    const user = userEvent.setup();
    const field = await screen.findByRole("textbox", { name: "API token" });
    expect(field).toHaveValue(`${TOKEN.slice(0, 15)}${"•".repeat(TOKEN.length - 15)}`);

    await user.click(screen.getByRole("button", { name: "Regenerate" }));
    expect(api.callsTo("POST", "/account/api-token/regenerate")).toHaveLength(0);
    await user.click(screen.getByRole("button", { name: "Yes, regenerate" }));
    await waitFor(() =>
      expect(screen.getByRole("textbox", { name: "API token" })).toHaveValue(
        `${fresh.slice(0, 15)}${"•".repeat(fresh.length - 15)}`,
      ),
    );
    expect(api.callsTo("POST", "/account/api-token/regenerate")).toHaveLength(1);
    for (const name of ["Node.js SDK", "PHP SDK", "MCP server", "API Docs"]) {
      expect(screen.getByRole("link", { name })).toBeInTheDocument();
    }
  });

  it("links the SDKs and the MCP server where the operator's /config says, and API Docs to /docs", async () => {
    signedIn({
      "GET /config": ok({
        ...TEST_CONFIG,
        node_sdk_url: "https://www.npmjs.com/package/@example/bytetoll",
        php_sdk_url: "https://packagist.org/packages/example/bytetoll",
        mcp_server_url: "https://proxy.example.test/docs/integrations#mcp",
      }),
    });
    renderRoute("/connect");
    expect(await screen.findByRole("link", { name: "Node.js SDK" })).toHaveAttribute(
      "href",
      "https://www.npmjs.com/package/@example/bytetoll",
    );
    expect(screen.getByRole("link", { name: "PHP SDK" })).toHaveAttribute(
      "href",
      "https://packagist.org/packages/example/bytetoll",
    );
    expect(screen.getByRole("link", { name: "MCP server" })).toHaveAttribute(
      "href",
      "https://proxy.example.test/docs/integrations#mcp",
    );
    expect(screen.getByRole("link", { name: "API Docs" })).toHaveAttribute("href", "/docs");
  });

  it("remembers a collapsed card across visits", async () => {
    signedIn();
    const first = renderRoute("/connect");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Example Code" }));
    expect(window.localStorage.getItem(collapsedStorageKey("example-code"))).toBe("true");
    first.unmount();

    renderRoute("/connect");
    const header = await screen.findByRole("button", { name: "Example Code" });
    expect(header).toHaveAttribute("aria-expanded", "false");
    expect(screen.getByRole("button", { name: "Credentials" })).toHaveAttribute("aria-expanded", "true");
  });
});

describe("Connect page SOCKS5", () => {
  it("names the SOCKS5 port and gives a SOCKS5 example with the current credentials", async () => {
    signedIn();
    renderRoute("/connect");
    const user = userEvent.setup();
    await shownUsername();
    expect(await screen.findByText("HTTP, HTTPS, SOCKS5")).toBeInTheDocument();
    expect(screen.getByText("SOCKS5 port").nextSibling).toHaveTextContent("1080");
    await user.click(screen.getByRole("tab", { name: "SOCKS5" }));
    const code = screen.getByTestId("example-code").textContent ?? "";
    expect(code).toContain(
      `curl --socks5-hostname 'proxy.example.test:1080' --proxy-user 'btabcdefghij:${CREDENTIALS.password}'`,
    );
    expect(code).toContain(`"socks5h://btabcdefghij:${CREDENTIALS.password}@proxy.example.test:1080"`);
  });

  it("leaves SOCKS5 out where the operator turned it off", async () => {
    signedIn({ "GET /gateway": ok({ ...GATEWAY, socks_port: null }) });
    renderRoute("/connect");
    await shownUsername();
    expect(await screen.findByText("HTTP, HTTPS")).toBeInTheDocument();
    expect(screen.queryByText("SOCKS5 port")).toBeNull();
    expect(screen.queryByRole("tab", { name: "SOCKS5" })).toBeNull();
  });
});

describe("Connect page targeting", () => {
  it("builds the username from the exit country and the session lifetime", async () => {
    signedIn({
      "GET /config": ok({
        ...TEST_CONFIG,
        gateway: { ...TEST_CONFIG.gateway, exit_countries: ["DE", "US"] },
      }),
    });
    renderRoute("/connect");
    const user = userEvent.setup();
    await shownUsername();
    const country = await screen.findByRole("combobox", { name: "Exit country" });
    await user.selectOptions(country, "DE");
    expect(usernameValue()).toBe("btabcdefghij-country-de");
    await user.click(screen.getByRole("switch", { name: "Sticky session" }));
    const lifetime = screen.getByRole("spinbutton", { name: "Session lifetime (minutes)" });
    await user.clear(lifetime);
    await user.type(lifetime, "60");
    expect(usernameValue()).toMatch(/^btabcdefghij-country-de-session-[A-Za-z0-9]{8}-sesstime-60$/);
    await user.selectOptions(country, "");
    expect(usernameValue()).toMatch(/^btabcdefghij-session-[A-Za-z0-9]{8}-sesstime-60$/);
  });

  it("offers no country where the operator's exits name none", async () => {
    signedIn();
    renderRoute("/connect");
    await shownUsername();
    expect(screen.queryByRole("combobox", { name: "Exit country" })).toBeNull();
  });

  it("adds a typed exit city, names a city the gateway would refuse, and says no exit lists cities", async () => {
    signedIn();
    renderRoute("/connect");
    const user = userEvent.setup();
    await shownUsername();
    const city = screen.getByRole("textbox", { name: "Exit city" });
    expect(screen.getByText(/No exit of this network lists its cities/)).toBeInTheDocument();
    await user.type(city, "new_york");
    expect(usernameValue()).toBe("btabcdefghij-city-new_york");
    await user.type(city, "1");
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Bad city 'new_york1': 2–40 of a–z and _. The username keeps 'new_york'.",
    );
    expect(usernameValue()).toBe("btabcdefghij-city-new_york");
    await user.clear(city);
    expect(usernameValue()).toBe("btabcdefghij");
    expect(window.localStorage.getItem(STORAGE_KEYS.exitCity)).toBeNull();
  });
});

describe("Authorized IPs", () => {
  it("lists the allowlist, adds the visitor's address in one click, and removes an entry", async () => {
    let saved: string[] = ["192.0.2.1"];
    const api = signedIn({
      "GET /settings/allowlist": () => ok({ ips: saved, pending: [], your_ip: "198.51.100.9" }),
      "POST /settings/allowlist": (call) => {
        saved = (call.body as { ips: string[] }).ips;
        return ok({ ips: saved, pending: [], your_ip: "198.51.100.9" });
      },
    });
    renderRoute("/connect");
    const user = userEvent.setup();
    const list = await screen.findByRole("list", { name: "Authorized IPs" });
    expect(await within(list).findByText("192.0.2.1")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Add my IP (198.51.100.9)" }));
    expect(await within(list).findByText("198.51.100.9")).toBeInTheDocument();
    expect(api.callsTo("POST", "/settings/allowlist")[0]?.body).toEqual({
      ips: ["192.0.2.1", "198.51.100.9"],
    });
    expect(screen.queryByRole("button", { name: /Add my IP/ })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Remove 192.0.2.1" }));
    await waitFor(() => expect(within(list).queryByText("192.0.2.1")).toBeNull());
    expect(saved).toEqual(["198.51.100.9"]);
  });

  it("shows the server's reason for a refused entry", async () => {
    signedIn({
      "GET /settings/allowlist": ok({ ips: [], pending: [], your_ip: "198.51.100.9" }),
      "POST /settings/allowlist": fail(400, "'10.0.0.0/16' is too wide: ranges may be at most /24"),
    });
    renderRoute("/connect");
    const user = userEvent.setup();
    await user.type(await screen.findByRole("textbox", { name: "IP address or range" }), "10.0.0.0/16");
    await user.click(screen.getByRole("button", { name: "Add" }));
    expect(
      await screen.findByText("'10.0.0.0/16' is too wide: ranges may be at most /24"),
    ).toBeInTheDocument();
  });
});
