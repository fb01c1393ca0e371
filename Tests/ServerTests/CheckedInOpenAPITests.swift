import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
import TestSupport
import Testing

/// The repository's `openapi.json` is the document the default composition serves at `/openapi.json`, byte for byte
/// in its stable form (`OpenAPIDocument.stableText`), so clients can be generated from a clone without a server.
@Suite struct CheckedInOpenAPITests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("openapi.json")
    static let regenerate = "swift run povver-server openapi openapi.json"

    @Test(arguments: TestDatabases.engines)
    func theCheckedInDocumentIsTheOneTheServerServes(engine: SQLEngine) async throws {
        guard let checkedIn = try? String(contentsOf: Self.file, encoding: .utf8) else {
            Issue.record("\(Self.file.path) is missing; write it with `\(Self.regenerate)` in the repository's root")
            return
        }
        try await TestServer.with(engine) { _, client in
            let served = try await Self.served(by: client)
            if let difference = Self.firstDifference(checkedIn, served) {
                Issue.record(
                    """
                    openapi.json is not the document the server serves (\(difference)). An endpoint's declaration \
                    changed: regenerate the file with `\(Self.regenerate)` in the repository's root and commit it.
                    """)
            }
        }
    }

    /// The command the failure above names writes exactly what the server serves, so running it fixes the failure.
    @Test func theRegeneratingCommandWritesTheServedDocument() async throws {
        let written = try await PovverServer.defaultOpenAPIText(logger: TestDatabases.logger)
        try await TestServer.with(.sqlite) { _, client in
            let served = try await Self.served(by: client)
            #expect(Self.firstDifference(written, served) == nil, "povver-server openapi writes another document than the one served")
        }
    }

    static func served(by client: any TestClientProtocol) async throws -> String {
        let response = try await client.get("/openapi.json")
        #expect(response.status == .ok)
        let document = try JSONCoding.makeDecoder().decode(JSONValue.self, from: Data(response.body.readableBytesView))
        return try OpenAPIDocument.stableText(document)
    }

    /// Where `expected` and `actual` first part, as a line number and the two lines; nil when they are the same.
    static func firstDifference(_ expected: String, _ actual: String) -> String? {
        guard expected != actual else { return nil }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(expectedLines.count, actualLines.count) {
            let mine = index < expectedLines.count ? String(expectedLines[index]) : "(end of file)"
            let theirs = index < actualLines.count ? String(actualLines[index]) : "(end of document)"
            if mine != theirs {
                return "first difference at line \(index + 1): the file has `\(mine.trimmingCharacters(in: .whitespaces))`, "
                    + "the server `\(theirs.trimmingCharacters(in: .whitespaces))`"
            }
        }
        return "they differ in line endings"
    }
}
