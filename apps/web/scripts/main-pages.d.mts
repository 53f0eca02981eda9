export declare const FRAME: string;
export declare const MAIN_PAGES: Record<'home' | 'analytics' | 'members', string[]>;
