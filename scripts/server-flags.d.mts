export declare const SERVER_HEAP_GROWING_PERCENT: number;
export declare function serverNodeFlags(): string[];
