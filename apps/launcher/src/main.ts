// `npm start`'s process: the API server, handed the gateway app it runs beside the API. The one
// place that names both apps, so that neither imports the other.
import { gatewayHost } from "@bytetoll/gateway";
import { runServer } from "@bytetoll/server";

runServer(gatewayHost).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
