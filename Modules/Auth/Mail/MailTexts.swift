/// The emails' texts.
enum MailTexts {
    static func verifyEmail(code: String) -> String {
        """
        Welcome to Povver! Please confirm that this is your email address.

        Open this link on your phone:
        povver://auth/action?mode=verifyEmail&oobCode=\(code)

        or enter this code in the app:
        \(code)

        The code works once and expires in 24 hours. If you didn't create a Povver account, ignore this email.
        """
    }

    static func verifyNewEmail(code: String) -> String {
        """
        Someone (hopefully you) asked to use this address for their Povver account.

        To confirm, open this link on your phone:
        povver://auth/action?mode=verifyAndChangeEmail&oobCode=\(code)

        or enter this code in the app:
        \(code)

        The code works once and expires in 24 hours. If you didn't ask for this, ignore this email.
        """
    }

    static func emailChanged(newEmail: String) -> String {
        """
        The email address of your Povver account was changed to \(newEmail).

        If you made this change, there is nothing to do. If you didn't, reset your password from the sign-in
        screen right away and contact support.
        """
    }

    static func passwordReset(code: String) -> String {
        """
        We received a request to reset the password of your Povver account.

        To choose a new password, open this link on your phone:
        povver://auth/action?mode=resetPassword&oobCode=\(code)

        or enter this code in the app:
        \(code)

        The code works once and expires in 1 hour. If you didn't ask for this, ignore this email: your password
        stays as it is.
        """
    }
}
