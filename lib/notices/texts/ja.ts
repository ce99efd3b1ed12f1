/** Security notices' Japanese texts (polite form, as lib/i18n/ja.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const ja: TextsOf<typeof en> = {
  "notices.mail.emailChanged.subject": "{site} のアカウントのメールアドレスが変更されました",
  "notices.mail.emailChanged.intro": "{time} に、{site} のアカウントのメールアドレスがこのアドレスから {detail} に変更されました。",
  "notices.mail.emailChanged.button": "この変更を取り消す",
  "notices.mail.emailChanged.footer": "心当たりがない場合は、{expires} までにリンクを開いてください。アカウントのアドレスがこのアドレスに戻り、すべてのデバイスからログアウトされます。リンクは一度だけ使えます。",
  "notices.mail.passwordChanged.subject": "{site} のアカウントのパスワードが変更されました",
  "notices.mail.passwordChanged.intro": "{time} に、{site} のアカウントのパスワードが変更されました。",
  "notices.mail.passwordReset.subject": "{site} のアカウントのパスワードが再設定されました",
  "notices.mail.passwordReset.intro": "{time} に、このアドレスに送信されたリンクで {site} のアカウントのパスワードが再設定されました。",
  "notices.mail.twoFactorEnabled.subject": "{site} のアカウントに 2 段階認証が設定されました",
  "notices.mail.twoFactorEnabled.intro": "{time} に、{site} のアカウントの 2 段階認証に認証アプリが設定されました。",
  "notices.mail.twoFactorDisabled.subject": "{site} のアカウントの 2 段階認証がオフになりました",
  "notices.mail.twoFactorDisabled.intro": "{time} に、{site} のアカウントの 2 段階認証がオフになりました。現在は最初のステップだけでログインできます。",
  "notices.mail.recoveryCodesReplaced.subject": "{site} のアカウントの新しいリカバリーコードが作成されました",
  "notices.mail.recoveryCodesReplaced.intro": "{time} に、{site} のアカウントの新しいリカバリーコードが作成されました。以前のコードは使えなくなりました。",
  "notices.mail.passkeyAdded.subject": "{site} のアカウントに新しいパスキーが追加されました",
  "notices.mail.passkeyAdded.intro": "{time} に、{site} のアカウントに新しいパスキーが追加されました。このパスキーでアカウントにログインできます。",
  "notices.mail.methodLinked.subject": "{site} のアカウントに新しいログイン方法が追加されました",
  "notices.mail.methodLinked.intro": "{time} に、{site} のアカウントにログイン方法として {detail} が追加されました。",
  "notices.mail.password": "パスワード",
  "notices.mail.twoFactorLocked.subject": "{site} のアカウントで誤ったコードが繰り返し入力されました",
  "notices.mail.twoFactorLocked.intro": "{time} に、{site} のアカウントのパスワードを知っている人が、誤った 2 段階認証コードを繰り返し入力しました。アカウントの 2 段階認証はしばらく停止され、さらに誤ったコードが続くたびに停止期間が長くなります。",
  "notices.mail.button": "アカウントを確認",
  "notices.mail.footer": "ご本人による操作であれば、何もする必要はありません。心当たりがない場合は、他人があなたのアカウントにログインできる可能性があります。アカウントのログイン方法とデバイスを確認し、パスワードをお持ちの場合は新しいパスワードを設定してください。",
  "notices.undo.heading": "メールアドレスの変更を取り消す",
  "notices.undo.message": "アカウントのアドレスを {email} に戻し、このデバイスを含むすべてのデバイスからログアウトします。その後もう一度ログインし、パスワードを他人に知られている可能性がある場合は新しいパスワードを設定してください。",
  "notices.undo.button": "{email} をアカウントに戻す",
}
