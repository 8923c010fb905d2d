export declare const root: string;
export declare const WEB_STAMP: string;
export declare const WEB_SOURCES: string[];
export declare const SERVER_BUNDLE: string;
export declare const SERVER_INPUTS: string;
export declare function newest(path: string): number;
export declare function webBuildIsFresh(): boolean;
export declare function serverBuildIsFresh(): boolean;
