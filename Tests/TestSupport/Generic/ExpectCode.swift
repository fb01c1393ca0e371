import Contracts
import Testing

/// Expects `body` to fail with `code`.
/// `details`: entries the error's details must hold (fake and live name the same fields).
public func expectCode(_ code: ErrorCode, _ why: String, details: [String: String] = [:], _ body: () async throws -> Void) async {
    do {
        try await body()
        Issue.record("\(why) succeeded")
    } catch let error as ServiceError {
        #expect(error.code == code, "\(why)")
        for (key, value) in details { #expect(error.details[key] == value, "\(why): details \(error.details)") }
    } catch {
        Issue.record("\(why): \(error)")
    }
}
