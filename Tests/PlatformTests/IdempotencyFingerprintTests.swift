import Foundation
import Testing

@testable import Platform

/// The idempotency fingerprint: a retry that differs only in how it writes zero is the same request.
@Suite struct IdempotencyFingerprintTests {
    @Test func negativeZerosLoseTheirSignOutsideStrings() {
        let cases: [(String, String)] = [
            (#"{"a":-0,"b":[-0.0,-0e5,-0.000E-2],"c":-0}"#, #"{"a":0,"b":[0.0,0e5,0.000E-2],"c":0}"#),
            (#"{"a":-1,"b":-0.5,"c":-10,"d":-0.01,"e":-1e-3,"f":-100e0}"#, #"{"a":-1,"b":-0.5,"c":-10,"d":-0.01,"e":-1e-3,"f":-100e0}"#),
            (#"{"name":"-0","note":"a \"-0\" b\\","x":-0}"#, #"{"name":"-0","note":"a \"-0\" b\\","x":0}"#),
            (#"{"-0":"\\\"-0"}"#, #"{"-0":"\\\"-0"}"#),
            ("-0", "0"), ("[]", "[]"),
        ]
        for (text, expected) in cases {
            #expect(IdempotencyStore.withoutNegativeZeros(Array(text.utf8)) == Array(expected.utf8), "\(text)")
        }
    }

    struct Body: Codable {
        var name: String
        var weights: [Double?]
    }

    @Test func aRequestWritingMinusZeroHasTheFingerprintOfZero() throws {
        let zero = try IdempotencyStore.requestFingerprint(operation: "op", request: Body(name: "-0", weights: [0, nil, 2.5]))
        #expect(try IdempotencyStore.requestFingerprint(operation: "op", request: Body(name: "-0", weights: [-0.0, nil, 2.5])) == zero)
        #expect(try IdempotencyStore.requestFingerprint(operation: "op", request: Body(name: "0", weights: [0, nil, 2.5])) != zero)
        #expect(try IdempotencyStore.requestFingerprint(operation: "op", request: Body(name: "-0", weights: [0, nil, -2.5])) != zero)
    }
}
