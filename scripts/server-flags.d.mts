export declare const SERVER_MAX_OLD_SPACE_MIB: number;
export declare function serverNodeFlags(nodeOptions?: string): string[];
