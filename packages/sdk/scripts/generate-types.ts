/**
 * Writes src/types.ts: the API's shapes as plain TypeScript, expanded by the compiler from the
 * zod schemas of @bytetoll/contracts. The published package then needs neither zod nor the
 * contracts for its types, and no shape is copied by hand; a shape that an earlier type already
 * expands is written as that type's name. The workspace's typecheck script runs
 * this first; test/generated-types.check.ts (written here too) proves each expanded type equals
 * its contract's.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const here = path.dirname(fileURLToPath(import.meta.url));
const output = path.join(here, "../src/types.ts");
const checkFile = path.join(here, "../test/generated-types.check.ts");
const probeFile = path.join(here, "../src/__types-probe.ts");

/** name → the type expression over the contracts (`c`) that it expands. */
export const GENERATED_TYPES = {
  AccountStatus: "z.output<typeof c.accountStatusSchema>",
  PublicConfig: "z.output<typeof c.publicConfigSchema>",
  UsagePeriod: "c.UsagePeriod",
  UsageGrouping: "c.UsageGrouping",
  UsageMetrics: "z.output<typeof c.usageMetricsSchema>",
  UsageDayRow: "z.output<typeof c.usageDayRowSchema>",
  UsageDomainRow: "z.output<typeof c.usageDomainRowSchema>",
  UsageSubuserRow: "z.output<typeof c.usageSubuserRowSchema>",
  Credentials: "z.output<typeof c.credentialsSchema>",
  ProxyServer: "z.output<typeof c.proxyServerSchema>",
  ConnectionTestData: "z.output<typeof c.connectionTestDataSchema>",
  Network: "c.Network",
  Order: "z.output<typeof c.order>",
  OrderPage: 'Omit<z.output<typeof c.orderPage>, "success">',
  ListOrdersQuery: "Partial<z.output<typeof c.listOrdersQuery>>",
  CreateOrderRequest: "z.input<typeof c.createOrderRequest>",
  HistoryEntry: "z.output<typeof c.historyEntry>",
  HistoryPage: 'Omit<z.output<typeof c.historyPage>, "success">',
  HistoryQuery: "Partial<z.output<typeof c.historyQuery>>",
  Deal: "z.output<typeof c.deal>",
  DealDeposits: 'z.output<typeof c.depositsResponse>["data"]',
  Hostnames: 'z.output<typeof c.hostnamesResponse>["data"]',
  RoutingRule: "z.output<typeof c.routingRuleSchema>",
  SubuserLimitPeriod: "c.SubuserLimitPeriod",
  Subuser: "z.output<typeof c.subuserSchema>",
  CreateSubuser: "z.input<typeof c.createSubuserSchema>",
  UpdateSubuser: "z.input<typeof c.updateSubuserSchema>",
  AutoTopupSettings: "z.output<typeof c.autoTopupSettingsSchema>",
  AutoTopupUpdate: "z.input<typeof c.autoTopupUpdateSchema>",
} as const;

function expand(): string {
  const aliases = Object.entries(GENERATED_TYPES)
    .map(([name, expression]) => `export type ${name} = ${expression};`)
    .join("\n");
  writeFileSync(
    probeFile,
    `import type { z } from "zod";\nimport type * as c from "@bytetoll/contracts";\n${aliases}\n`,
  );
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(here, "../tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error("cannot read tsconfig.json");
  const program = ts.createProgram([probeFile], config.options);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(probeFile);
  if (!source) throw new Error("probe file not loaded");
  const flags =
    ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.InTypeAlias | ts.NodeBuilderFlags.IgnoreErrors;
  const printer = ts.createPrinter({ removeComments: true });
  const print = (node: ts.Node) => printer.printNode(ts.EmitHint.Unspecified, node, source);
  /** printed expansion → the name of the earlier type it expands, so a later type says the name. */
  const named = new Map<string, string>();
  const reuseNames = (node: ts.Node): ts.Node => {
    const name = named.get(print(node));
    if (name) return ts.factory.createTypeReferenceNode(name);
    return ts.visitEachChild(node, reuseNames, undefined);
  };
  const lines = source.statements.filter(ts.isTypeAliasDeclaration).map((alias) => {
    const node = checker.typeToTypeNode(checker.getTypeAtLocation(alias.name), alias, flags);
    if (!node) throw new Error(`cannot expand ${alias.name.text}`);
    const text = print(ts.visitEachChild(node, reuseNames, undefined));
    named.set(print(node), alias.name.text);
    return `export type ${alias.name.text} = ${text};`;
  });
  return lines.join("\n\n");
}

/** Writes `text` as Biome formats it, and only when that changes the file (its time stays put). */
function writeFormatted(file: string, text: string) {
  const biome = path.join(here, "../../../node_modules/.bin/biome");
  const formatted = execFileSync(biome, ["format", `--stdin-file-path=${file}`], { input: text }).toString();
  const current = existsSync(file) ? readFileSync(file, "utf8") : null;
  if (formatted !== current) writeFileSync(file, formatted);
}

/** A file the type check (not Vitest) reads: each generated type equals its contract's. */
function equalityChecks(): string {
  const checks = Object.entries(GENERATED_TYPES)
    .map(([name, expression]) => `export const ${name}: Same<T.${name}, ${expression}> = true;`)
    .join("\n");
  return [
    "// Generated by scripts/generate-types.ts: fails the type check when src/types.ts is stale.",
    'import type * as c from "@bytetoll/contracts";',
    'import type { z } from "zod";',
    'import type * as T from "../src/types.ts";',
    "",
    "type Same<A, B> = (<V>() => V extends A ? 1 : 2) extends <V>() => V extends B ? 1 : 2 ? true : false;",
    checks,
    "",
  ].join("\n");
}

try {
  const body = expand();
  writeFormatted(
    output,
    `// Generated by scripts/generate-types.ts from @bytetoll/contracts. Do not edit.\n\n${body}\n`,
  );
  writeFormatted(checkFile, equalityChecks());
  console.log(`wrote ${path.relative(process.cwd(), output)} and ${path.relative(process.cwd(), checkFile)}`);
} finally {
  ts.sys.deleteFile?.(probeFile);
}
