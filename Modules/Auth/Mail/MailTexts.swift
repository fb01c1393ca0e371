/// The emails' texts.
enum MailTexts {
    static func verifyEmail(code: String) -> String {
        """
        Welcome to Povver! Please confirm that this is your email address.

        Open this link on your phone:
        povver://auth/action?mode=verifyEmail&oobCode=\(code)

        or enter this code in the app:
        \(code)

        The code works once and expires in 24 hours. Until you confirm, you can't link Google or Apple sign-in or
        register a device for notifications. If you didn't create a Povver account, ignore this email; if someone
        else created one with your address, you can take it over by resetting its password from the sign-in screen.
        """
    }

    /// `unverifiedAccount`: the account's address was never confirmed, so confirming this one removes what was
    /// added to it until now (`AuthService.removeUnprovenAccess`).
    static func verifyNewEmail(code: String, unverifiedAccount: Bool) -> String {
        """
        Someone (hopefully you) asked to use this address for their Povver account.

        To confirm, open this link on your phone:
        povver://auth/action?mode=verifyAndChangeEmail&oobCode=\(code)

        or enter this code in the app:
        \(code)

        The code works once and expires in 24 hours. If you didn't ask for this, ignore this email.
        """ + (unverifiedAccount ? "\n\n" + removalWarning(action: "confirming this address") : "")
    }

    static func emailChanged(newEmail: String) -> String {
        """
        The email address of your Povver account was changed to \(newEmail).

        If you made this change, there is nothing to do. If you didn't, reset your password from the sign-in
        screen right away and contact support.
        """
    }

    static func passwordReset(code: String, unverifiedAccount: Bool) -> String {
        """
        We received a request to reset the password of your Povver account.

        To choose a new password, open this link on your phone:
        povver://auth/action?mode=resetPassword&oobCode=\(code)

        or enter this code in the app:
        \(code)

        The code works once and expires in 1 hour. If you didn't ask for this, ignore this email: your password
        stays as it is.
        """ + (unverifiedAccount ? "\n\n" + removalWarning(action: "choosing a new password") : "")
    }

    static func removalWarning(action: String) -> String {
        """
        This account's email address has not been confirmed yet, so someone else may have set it up with your
        address. To make sure only you can get in, \(action) will also remove every Google or Apple sign-in linked
        to it and every registered device, and sign out everywhere.
        """
    }

    /// What `removeUnprovenAccess` took away, told to the address just confirmed.
    static func unprovenAccessRemoved(providers: [String], devices: Int) -> String {
        var removed = providers.map { "- Sign in with \($0)" }
        if devices > 0 {
            removed.append(
                "- \(devices) registered device\(devices == 1 ? "" : "s") (\(devices == 1 ? "it no longer receives" : "they no longer receive") notifications)"
            )
        }
        return """
            Your email address is now confirmed for your Povver account. It was not before, so someone else may have set
            the account up with your address. To make sure only you can get in, we removed:

            \(removed.joined(separator: "\n"))

            and every device was signed out. If you had added these yourself, sign in and add them again in Settings.
            """
    }
}
