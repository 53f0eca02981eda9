export declare const MIN_BYTES: number;
export declare function compressAssets(dir: string): { file: string; raw: number; br: number; gz: number }[];
