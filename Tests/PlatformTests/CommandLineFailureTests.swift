import Contracts
import Platform
import Testing

/// What an admin CLI prints and exits with when its command fails (`CommandLineFailure`).
@Suite struct CommandLineFailureTests {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "connection refused" }
    }

    @Test func refusedRequestsAreDataErrorsAndTheRestSoftwareErrors() {
        let refused = CommandLineFailure(ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 100"))
        #expect(
            refused
                == CommandLineFailure(message: "INVALID_ARGUMENT: The field 'limit' is invalid: must be from 1 to 100. (limit)", status: 65)
        )
        #expect(CommandLineFailure(ServiceError(.notFound, "No such user.")).message == "NOT_FOUND: No such user.")
        #expect(CommandLineFailure(ServiceError(.notFound)).status == 65)
        #expect(CommandLineFailure(ServiceError(.internalError, "boom")).status == 70)
        #expect(CommandLineFailure(Broken()) == CommandLineFailure(message: "connection refused", status: 70))
    }

    /// An error quoting someone's text (an id typed or stored) cannot act on the terminal it is printed on.
    @Test func aMessageIsPrintedWithItsControlCharactersEscaped() {
        let failure = CommandLineFailure(ServiceError(.notFound, "No account with id \u{1B}]0;owned\u{07}\nx."))
        #expect(failure.message == "NOT_FOUND: No account with id \\u{1B}]0;owned\\u{07}\\nx.")
        #expect(CommandLineFailure(Broken()).message == "connection refused")
    }
}
