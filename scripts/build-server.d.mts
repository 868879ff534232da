/** Types of build-server.mjs, for TypeScript that bundles as `npm run build` does (the benches). */
export declare const targets: Array<{ entry: string; outfile: string }>;
export declare const sourceDirs: string[];
export declare function bundle(entry: string, outfile: string): Promise<void>;
export declare function buildServer(): Promise<void>;
