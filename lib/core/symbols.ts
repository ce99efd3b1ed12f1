/**
 * Marker values. `Symbol.for` so that two copies of the package (an ESM and a CommonJS load, or a
 * nested install) still recognise each other's markers.
 */

/** Put in `config.skipCSRFCheck` to turn the built-in CSRF protection off. */
export const skipCSRFCheck: unique symbol = Symbol.for("gatehouse.skip-csrf-check")

/** Put in `config.raw` to make `Auth()` return the internal response record. */
export const raw: unique symbol = Symbol.for("gatehouse.raw")

/** A provider property: the fetch to use for that provider's endpoints. */
export const customFetch: unique symbol = Symbol.for("gatehouse.custom-fetch")
