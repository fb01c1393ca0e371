import Contracts
import Testing

@testable import Auth

@Suite struct ValidationTests {
    @Test(arguments: [
        ("  Ada@Example.COM ", "ada@example.com"),
        ("x.y+tag@sub.domain.io", "x.y+tag@sub.domain.io"),
        ("\tUPPER@CASE.ORG\n", "upper@case.org"),
    ])
    func emailsAreTrimmedAndLowerCased(raw: String, normalized: String) throws {
        #expect(try Validation.normalizedEmail(raw) == normalized)
    }

    @Test(arguments: [
        "", "plain", "@example.com", "a@", "a@b", "a@.com", "a@b..com", "a b@c.co", "a@b.com.", "a@@b.co", "<a>@b.co",
        String(repeating: "a", count: 250) + "@b.co",
    ])
    func invalidEmailsAreRefused(raw: String) {
        #expect(
            performing: { try Validation.normalizedEmail(raw) },
            throws: { error in
                (error as? ServiceError)?.code == .invalidArgument && (error as? ServiceError)?.details["field"] == "email"
            })
    }

    @Test func shortPasswordIsWeakWithTheSeedsSentence() {
        #expect(
            performing: { try Validation.newPassword("12345") },
            throws: { error in
                let error = error as? ServiceError
                return error?.code == .weakPassword && error?.message == "Password must be at least 6 characters."
            })
        #expect(throws: Never.self) { try Validation.newPassword("123456") }
    }

    @Test func hugePasswordsAreRefusedBeforeHashing() {
        let huge = String(repeating: "p", count: 10_240)
        #expect(performing: { try Validation.newPassword(huge) }, throws: { ($0 as? ServiceError)?.code == .invalidArgument })
        #expect(performing: { try Validation.presentedPassword(huge) }, throws: { ($0 as? ServiceError)?.code == .invalidArgument })
    }

    /// Upper bounds count code points, as the schemas' `maxLength` does: a thumbs-up with a skin tone is one
    /// character but two code points.
    @Test func upperBoundsCountCodePoints() throws {
        let thumb = "\u{1F44D}\u{1F3FD}"
        #expect(try Validation.name(String(repeating: thumb, count: 50)) == String(repeating: thumb, count: 50))
        #expect(
            performing: { try Validation.name(String(repeating: thumb, count: 51)) },
            throws: {
                ($0 as? ServiceError)?.code == .invalidArgument && ($0 as? ServiceError)?.details["field"] == "name"
            })
        let longest = String(repeating: thumb, count: Validation.maximumPasswordLength / 2)
        #expect(throws: Never.self) { try Validation.newPassword(longest) }
        #expect(throws: Never.self) { try Validation.presentedPassword(longest) }
        #expect(performing: { try Validation.newPassword(longest + thumb) }, throws: { ($0 as? ServiceError)?.code == .invalidArgument })
        #expect(
            performing: { try Validation.presentedPassword(longest + thumb) }, throws: { ($0 as? ServiceError)?.code == .invalidArgument })
        // The minimum counts characters: three of them are too few whatever their code points.
        #expect(
            performing: { try Validation.newPassword(String(repeating: thumb, count: 3)) },
            throws: { ($0 as? ServiceError)?.code == .weakPassword })
    }

    @Test func timeZonesMustBeIANA() throws {
        #expect(try Validation.timeZone("Europe/Berlin") == "Europe/Berlin")
        #expect(try Validation.timeZone(nil) == nil)
        #expect(throws: ServiceError.self) { try Validation.timeZone("Mars/Olympus") }
    }
}

@Suite struct FriendlyMessageTests {
    /// The app's table (docs/product.md "Friendly error messages"), pinned.
    @Test(arguments: [
        (ErrorCode.wrongPassword, "Incorrect password. Please try again."),
        (.requiresRecentLogin, "For your security, please sign in again to continue."),
        (.emailAlreadyInUse, "This email is already in use by another account."),
        (.weakPassword, "Password must be at least 6 characters."),
        (
            .accountExistsWithDifferentCredential,
            "An account with this email already exists. Please sign in with your original method, then link this provider in Settings."
        ),
        (.invalidCredential, "The sign-in credentials are invalid. Please try again."),
        (.userNotFound, "No account found with this email. Please register first."),
        (.internalError, "Something went wrong. Please try again."),
    ])
    func authCodesCarryTheSeedsMessages(code: ErrorCode, message: String) {
        #expect(ServiceError(code).message == message)
    }
}
