import Foundation
import NIOCore
import Testing

@testable import Platform

/// `JSONWriter` must write what `JSONCoding.makeEncoder()` writes, byte for byte: answers written by hand are
/// stored as idempotent replies and request fingerprints are compared with those of earlier versions.
@Suite struct JSONWriterTests {
    struct Sample: Codable, JSONWritable {
        var alpha: String
        var bravo: Int
        var charlie: Double?
        var delta: Date
        var echo: [Int]
        var foxtrot: Bool
        var golf: String?
        var hotel: Double

        func write(to writer: inout JSONWriter) {
            writer.beginObject()
            writer.key("alpha")
            writer.string(alpha)
            writer.key("bravo")
            writer.int(bravo)
            writer.key("charlie")
            writer.double(charlie)
            writer.key("delta")
            writer.date(delta)
            writer.key("echo")
            writer.beginArray()
            for value in echo { writer.int(value) }
            writer.endArray()
            writer.key("foxtrot")
            writer.bool(foxtrot)
            writer.key("golf")
            writer.string(golf)
            writer.key("hotel")
            writer.double(hotel)
            writer.endObject()
        }

        // As the synthesized conformance, but nils written as null (as the documents' own encoders do).
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(alpha, forKey: .alpha)
            try container.encode(bravo, forKey: .bravo)
            try container.encode(charlie, forKey: .charlie)
            try container.encode(delta, forKey: .delta)
            try container.encode(echo, forKey: .echo)
            try container.encode(foxtrot, forKey: .foxtrot)
            try container.encode(golf, forKey: .golf)
            try container.encode(hotel, forKey: .hotel)
        }
    }

    static func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try JSONCoding.encode(value), as: UTF8.self)
    }

    static func written(_ value: some JSONWritable) -> String {
        String(decoding: value.jsonBytes, as: UTF8.self)
    }

    @Test func everyASCIICharacterIsEscapedAsTheEncoderDoes() throws {
        for byte in UInt8(0)...UInt8(127) {
            let text = "a" + String(UnicodeScalar(byte)) + "z"
            let sample = Sample(
                alpha: text, bravo: 0, charlie: nil, delta: Date(timeIntervalSince1970: 0), echo: [], foxtrot: false, golf: text, hotel: 0)
            #expect(Self.written(sample) == (try Self.encoded(sample)), "byte \(byte)")
        }
    }

    @Test func randomValuesMatchTheEncoder() throws {
        var generator = SystemRandomNumberGenerator()
        let scalars: [UnicodeScalar] = ["é", "\u{2028}", "\u{7f}", "😀", "中", "\u{1}", "\"", "\\", "/", "\n", "\u{feff}"]
        for _ in 0..<2_000 {
            let text = String(
                String.UnicodeScalarView(
                    (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                        Bool.random(using: &generator)
                            ? scalars.randomElement(using: &generator)! : UnicodeScalar(UInt8.random(in: 32...126, using: &generator))
                    }))
            var bits = Double(bitPattern: UInt64.random(in: .min ... .max, using: &generator))
            if !bits.isFinite { bits = 0 }
            let doubles: [Double] = [
                bits, Double(Int.random(in: -1_000_000...1_000_000, using: &generator)), Double.random(in: 0...1000, using: &generator),
                (Double.random(in: 0...1000, using: &generator) * 10).rounded() / 10, 1e21, 1e-7, -0.0, 0.1 + 0.2,
            ]
            let sample = Sample(
                alpha: text, bravo: Int.random(in: .min ... .max, using: &generator),
                charlie: Bool.random() ? doubles.randomElement()! : nil,
                delta: Date(
                    timeIntervalSince1970: Double(Int.random(in: -2_000_000_000_000...4_000_000_000_000, using: &generator)) / 1000),
                echo: (0..<Int.random(in: 0...4, using: &generator)).map { _ in Int.random(in: -5...5, using: &generator) },
                foxtrot: Bool.random(using: &generator), golf: Bool.random(using: &generator) ? text : nil, hotel: doubles.randomElement()!)
            #expect(Self.written(sample) == (try Self.encoded(sample)))
        }
    }

    @Test func extremesOfNumbersMatchTheEncoder() throws {
        for value in [Int.min, Int.max, 0, -1, 1, 10, 1_000_000] {
            var writer = JSONWriter()
            writer.int(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == (try Self.encoded(value)))
        }
        // Dates around the epoch, the first and last of four-digit years, and beyond them.
        for milliseconds: Int64 in [
            0, -1, 999, -999, -1000, -62_135_596_800_000, 253_402_300_799_999, 253_402_300_800_000, -62_135_596_800_001,
        ] {
            var writer = JSONWriter()
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            writer.date(date)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == (try Self.encoded(date)), "\(milliseconds)")
        }
        for value in [
            Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, .leastNonzeroMagnitude, 1e15, 1e16, 123.456, 1000, 0, -0.0, -1,
            -1000,
            9_007_199_254_740_991, 9_007_199_254_740_992, -9_007_199_254_740_991, 999_999_999_999_999, 1e21, 0.5, -0.5,
        ] {
            var writer = JSONWriter()
            writer.double(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == (try Self.encoded(value)))
        }
    }

    @Test func encodedJSONGoesIntoTheEnvelopeAsItIs() throws {
        let bytes = Array(#"{"b":[1,2],"a":"x"}"#.utf8)
        var body = try Envelope.successBody(EncodedJSON(bytes: bytes))
        #expect(body.readString(length: body.readableBytes) == #"{"data":{"b":[1,2],"a":"x"},"success":true}"#)
        // The same shape as any other answer's envelope.
        var plain = try Envelope.successBody(["a": 1])
        #expect(plain.readString(length: plain.readableBytes) == #"{"data":{"a":1},"success":true}"#)
        // Encoded by anything else, it reads back as the same JSON value.
        let reencoded = try JSONCoding.encode(EncodedJSON(bytes: bytes))
        #expect(String(decoding: reencoded, as: UTF8.self) == #"{"a":"x","b":[1,2]}"#)
    }
}
