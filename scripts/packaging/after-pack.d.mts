/** Types of after-pack.mjs (electron-builder's afterPack hook). */
import type { AfterPackContextLike } from './fuses.mjs';
export declare function afterPack(context: AfterPackContextLike, flip?: (binary: string, config: Record<string | number, unknown>) => Promise<unknown>): Promise<void>;
export default afterPack;
