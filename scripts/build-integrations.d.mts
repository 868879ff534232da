export const downloadsDir: string;
export const DOWNLOAD_NAMES: string[];
export const integrationSourceDirs: string[];
export function buildIntegrations(): Promise<void>;
