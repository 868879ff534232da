// Loaded before the server in tests of its process-level safety nets: on SIGUSR2 it makes the
// failure FAULT_PROBE names happen in the running server — a promise rejection nobody handles, or
// an exception nobody catches.
process.on("SIGUSR2", () => {
  if (process.env.FAULT_PROBE === "exception") {
    setImmediate(() => {
      throw new Error("probe: an exception nobody catches");
    });
  } else {
    Promise.reject(new Error("probe: a rejection nobody handles"));
  }
});
