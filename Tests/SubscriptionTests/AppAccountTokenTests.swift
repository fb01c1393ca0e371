import Foundation
import Subscription
import TestSupport
import Testing

/// `app_account_token` is UUID v5 of the user id in the DNS namespace and must equal what any other correct
/// implementation gives (the iOS app computes the same token for its purchases).
@Suite struct AppAccountTokenTests {
    /// Vectors from Python's `uuid.uuid5(uuid.NAMESPACE_DNS, name)` (RFC 9562's algorithm; "python.org" is the
    /// example in Python's documentation).
    @Test(arguments: [
        ("python.org", "886313e1-3b8a-5372-9b90-0c9aee199e5d"),
        ("www.example.com", "2ed6657d-e927-568b-95e1-2665a8aea6a2"),
        ("u-1", "86d75f46-acac-529c-be02-ab0820713376"),
        ("9f3c2a1b4d5e6f708192a3b4c5d6e7f8", "50de22eb-854b-5f80-a31c-1af697e193ae"),
        ("user@example.com", "b21b5663-c40d-51b7-8d60-c015e3de48e9"),
        ("Ünïcödé-ユーザー", "9865fab4-cabb-5d15-9c65-a2fa40a8737b"),
        ("", "4ebd0208-8328-5d69-8c44-ec50939c0967"),
    ])
    func knownVectors(name: String, expected: String) {
        #expect(AppAccountToken.forUser(name) == expected)
    }

    /// For random ids: the RFC's shape (version 5, variant 10xx, lowercase 8-4-4-4-12), stable, and equal to a
    /// second implementation (Python's `uuid` module, when python3 is installed — CI has it).
    @Test func randomIdsAgreeWithAnotherImplementation() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789-_@.ÅéßЖ漢")
        let names = (0..<200).map { _ in
            String((0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
        let pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
        for name in names {
            let token = AppAccountToken.forUser(name)
            #expect(token.wholeMatch(of: pattern) != nil, "\(token) is not a v5 UUID")
            #expect(AppAccountToken.forUser(name) == token)
        }
        #expect(Set(names).count == Set(names.map(AppAccountToken.forUser)).count, "distinct ids give distinct tokens")

        guard
            let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile(atPath:))
                ?? Self.which("python3")
        else { return }
        let process = try ChildProcess(
            [
                python, "-c",
                "import json,sys,uuid; print(json.dumps([str(uuid.uuid5(uuid.NAMESPACE_DNS, n)) for n in json.load(sys.stdin)]))",
            ],
            input: true, output: true)
        process.input!.write(try JSONSerialization.data(withJSONObject: names))
        try process.input!.close()
        let data = process.output!.readDataToEndOfFile()
        #expect(process.waitUntilExit() == 0)
        let expected = try #require(try JSONSerialization.jsonObject(with: data) as? [String])
        #expect(expected == names.map(AppAccountToken.forUser))
    }

    static func which(_ command: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(command)" }
            .first(where: FileManager.default.isExecutableFile(atPath:))
    }
}
