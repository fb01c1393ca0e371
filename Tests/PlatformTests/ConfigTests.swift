import Contracts
import Foundation
import Platform
import Testing

@Suite struct ConfigTests {
    @Test func defaultsRunOnAFreshMachine() throws {
        let config = try AppConfig.fromEnvironment([:])
        #expect(config.host == "127.0.0.1")
        #expect(config.port == 8080)
        #expect(config.database == .sqliteFile(path: "./povver.sqlite"))
        #expect(config.serviceAPIKeys.isEmpty)
        #expect(config.mailTransport == "log")
        #expect(config.logFormat == .json)
        #expect(config.modules == nil, "every module")
        #expect(config.httpReadTimeout == .seconds(30) && config.httpWriteTimeout == .seconds(60))
        #expect(try AppConfig.fromEnvironment([:], stdoutIsTerminal: true).logFormat == .text)
        #expect(try AppConfig.fromEnvironment(["POVVER_HTTP_WRITE_TIMEOUT_SECONDS": "5"]).httpWriteTimeout == .seconds(5))
    }

    @Test func variablesAreRead() throws {
        let environment = [
            "POVVER_HOST": "0.0.0.0", "POVVER_PORT": "9000", "POVVER_DATABASE_URL": "postgres://a@b/c",
            "POVVER_SERVICE_API_KEYS": "k1, k2,,", "POVVER_LOG_FORMAT": "text", "POVVER_MODULES": "Auth, subscription",
        ]
        let config = try AppConfig.fromEnvironment(environment)
        #expect(config.host == "0.0.0.0")
        #expect(config.port == 9000)
        #expect(config.database.engine == .postgres)
        #expect(config.serviceAPIKeys == ["k1", "k2"])
        #expect(config.logFormat == .text)
        #expect(config.modules == ["auth", "subscription"])
        #expect(config.environment == environment, "the modules read their own variables from it")
    }

    @Test func badValuesNameTheVariable() {
        for (name, value) in [
            ("POVVER_PORT", "eighty"), ("POVVER_PORT", "70000"), ("POVVER_LOG_FORMAT", "xml"), ("POVVER_MAIL_TRANSPORT", "pigeon"),
            ("POVVER_MAX_BODY_BYTES", "12"), ("POVVER_HTTP_WRITE_TIMEOUT_SECONDS", "0"), ("POVVER_HTTP_WRITE_TIMEOUT_SECONDS", "3601"),
        ] {
            #expect(
                performing: { try AppConfig.fromEnvironment([name: value]) },
                throws: { error in
                    (error as? ServiceError)?.details["field"] == name
                })
        }
    }

    @Test func theEnvironmentReaderSaysWhatIsWrong() throws {
        let reader = EnvironmentReader(["A": " 5 ", "B": "  ", "C": "x, y,,z", "D": "maybe"])
        #expect(reader.value("A") == "5" && reader.value("B") == nil && reader.value("missing") == nil)
        #expect(reader.list("C") == ["x", "y", "z"] && reader.list("B").isEmpty)
        #expect(try reader.integer("A", default: 1, range: 1...9) == 5)
        #expect(try reader.integer("B", default: 7, range: 1...9) == 7)
        #expect(try reader.choice("B", default: "on", allowed: ["on", "off"]) == "on")
        #expect(
            performing: { try reader.integer("A", default: 1, range: 6...9) },
            throws: { error in
                (error as? ServiceError)?.message == "A must be a whole number from 6 to 9."
            })
        #expect(
            performing: { try reader.choice("D", default: "on", allowed: ["on", "off", "auto"]) },
            throws: { error in
                (error as? ServiceError)?.message == "D must be on, off or auto." && (error as? ServiceError)?.details["field"] == "D"
            })
    }
}

@Suite struct TimestampTests {
    @Test func formattingRoundTripsThroughParsing() {
        for offset in stride(from: 0.0, to: 2.0, by: 0.0137) {
            let date = Date(timeIntervalSince1970: 1_795_000_000.5035 + offset)
            let text = date.rfc3339
            #expect(text.count == 24 && text.hasSuffix("Z"))
            #expect(Date(rfc3339: text)?.rfc3339 == text)
        }
        #expect(Date(timeIntervalSince1970: 0).rfc3339 == "1970-01-01T00:00:00.000Z")
        #expect(Date(timeIntervalSince1970: 1.9996).rfc3339 == "1970-01-01T00:00:02.000Z")
    }
}

@Suite struct TimestampPropertyTests {
    @Test func fastFormattingAgreesWithFoundation() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let milliseconds = Int64.random(in: 0...4_102_444_800_000, using: &generator)
            let date = Date(millisecondsSince1970: milliseconds)
            let text = date.rfc3339
            let reference = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
            #expect(text.prefix(19) == reference.prefix(19))
            #expect(Date(rfc3339: text)?.millisecondsSince1970 == milliseconds)
        }
    }

    @Test func offsetsAndWholeSecondsStillParse() {
        #expect(Date(rfc3339: "2026-01-02T03:04:05Z")?.timeIntervalSince1970 == 1_767_323_045)
        #expect(Date(rfc3339: "2026-01-02T04:04:05+01:00")?.timeIntervalSince1970 == 1_767_323_045)
        #expect(Date(rfc3339: "2026-13-02T03:04:05Z") == nil)
        #expect(Date(rfc3339: "yesterday") == nil)
    }
}

@Suite struct HexTests {
    @Test func hexMatchesFormatting() {
        let bytes: [UInt8] = [0, 1, 15, 16, 127, 128, 254, 255]
        #expect(bytes.hexString == "00010f107f80feff")
        #expect(bytes.hexString == bytes.map { String(format: "%02x", $0) }.joined())
        #expect([UInt8]().hexString == "")
    }
}
