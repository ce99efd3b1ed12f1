/**
 * The identity provider's texts in every built-in language: the provider's pages (consent, the
 * device flow, logout, errors: pages.ts), the account page's "Connected apps" section (apps.ts),
 * and the admin page's "OAuth clients" section with its one-time secret page (admin.ts). Its
 * capability object brings them (`texts`, ../capability.ts, which also makes their keys part of
 * `MessageKey`).
 */
import type { Texts } from "../../i18n/text-types.js"
import { pagesDe, pagesEn, pagesEs, pagesFr, pagesJa } from "./pages.js"
import { appsDe, appsEn, appsEs, appsFr, appsJa } from "./apps.js"
import { adminDe, adminEn, adminEs, adminFr, adminJa } from "./admin.js"

const en = { ...pagesEn, ...appsEn, ...adminEn }

export const identityProviderTexts: Texts<typeof en> = Object.freeze({
  en,
  de: { ...pagesDe, ...appsDe, ...adminDe },
  fr: { ...pagesFr, ...appsFr, ...adminFr },
  es: { ...pagesEs, ...appsEs, ...adminEs },
  ja: { ...pagesJa, ...appsJa, ...adminJa },
})
