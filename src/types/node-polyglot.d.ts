/** The part of node-polyglot (a dependency of ra-i18n-polyglot) the console uses directly. */
declare module 'node-polyglot' {
  interface PolyglotOptions {
    locale?: string;
    phrases?: object;
    allowMissing?: boolean;
  }
  export default class Polyglot {
    constructor(options?: PolyglotOptions);
    t(key: string, options?: Record<string, unknown>): string;
  }
}
