import Foundation
import Platform
import TestSupport
import Testing

/// Integers from floating-point values never trap (docs/platform.md, "Input never traps").
@Suite struct SaturatingConversionTests {
    @Test func valuesBeyondTheTypeAreClampedAndNaNIsZero() {
        #expect(Int64(saturating: .infinity) == .max)
        #expect(Int64(saturating: -.infinity) == .min)
        #expect(Int64(saturating: .nan) == 0)
        #expect(Int64(saturating: 1e300) == .max)
        #expect(Int64(saturating: Double(Int64.max)) == .max, "2^63 is one past the largest Int64")
        #expect(Int64(saturating: -9_223_372_036_854_775_808) == .min)
        #expect(Int32(saturating: 3e9) == .max && UInt8(saturating: -1) == 0 && UInt8(saturating: 300) == 255)
        #expect(Int(saturating: 2.9) == 2 && Int(saturating: -2.9) == -2, "toward zero, as Int(_:) is")
    }

    @Test func everyDoubleConvertsAndAgreesWithTheTrappingConversionWhereThatOneWorks() {
        var random = SeededRandomNumberGenerator(seed: 4807)
        for _ in 0..<20_000 {
            let value = Double(bitPattern: random.next())
            let converted = Int64(saturating: value)
            if let exact = Int64(exactly: value.rounded(.towardZero)) { #expect(converted == exact, "\(value)") }
        }
    }

    /// A date no millisecond count holds (an import's start plus 1e16 hours) stores as the furthest one, not a trap.
    @Test func datesBeyondTheMillisecondRangeClamp() {
        #expect(Date(timeIntervalSince1970: 1e16 * 3600).millisecondsSince1970 == .max)
        #expect(Date(timeIntervalSince1970: -1e16 * 3600).millisecondsSince1970 == .min)
        #expect(Date(millisecondsSince1970: 1_709_573_400_123).millisecondsSince1970 == 1_709_573_400_123)
    }

    @Test func notFiniteNumbersAreWrittenAsNull() {
        var writer = JSONWriter()
        writer.beginArray()
        writer.double(.infinity)
        writer.double(.nan)
        writer.double(1.5)
        writer.endArray()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "[null,null,1.5]")
    }
}
