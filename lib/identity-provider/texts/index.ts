/**
 * The identity provider's texts in every built-in language: the provider's pages (consent, the
 * device flow, logout, errors: pages-*.ts) and the account page's "Connected apps" section
 * (apps-*.ts). Its capability object brings them (`texts`, ../capability.ts, which also makes their
 * keys part of `MessageKey`).
 */
import type { Texts } from "../../i18n/text-types.js"
import { pagesDe, pagesEn, pagesEs, pagesFr, pagesJa } from "./pages.js"
import { appsDe, appsEn, appsEs, appsFr, appsJa } from "./apps.js"

const en = { ...pagesEn, ...appsEn }

export const identityProviderTexts: Texts<typeof en> = Object.freeze({
  en,
  de: { ...pagesDe, ...appsDe },
  fr: { ...pagesFr, ...appsFr },
  es: { ...pagesEs, ...appsEs },
  ja: { ...pagesJa, ...appsJa },
})
