/**
 * Types only: the provider ids an app configured, for `createAuthClient<ProviderId<typeof config>>()`.
 * Structural (no import of the server package), so nothing of the server reaches the bundle. The
 * ids are literal only where the configuration keeps them literal (e.g. `Credentials({ id:
 * "staff" as const, ... })` or a `providers` array declared `as const`); otherwise this is
 * `string`, and naming the ids by hand (`createAuthClient<"password" | "github">()`) is the way.
 */
type IdOf<P> = P extends { id: infer I extends string } ? I : P extends (...args: never[]) => { id: infer I extends string } ? I : never

export type ProviderId<Config> = Config extends { providers: ReadonlyArray<infer P> } ? IdOf<P> : string
