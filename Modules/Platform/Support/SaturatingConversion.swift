/// Integers from floating-point values that never trap.
///
/// Swift's `Int(someDouble)` traps on NaN, on infinity and on a value outside the type's range, so one number
/// a user typed (`1e16` hours, `inf` minutes) could stop the process. Every conversion from a `Double` that input
/// can reach goes through `init(saturating:)` (or the standard library's failable `init(exactly:)` where an
/// out-of-range value must be refused instead); `Tools/check-input-traps` refuses the plain initializer there.
extension FixedWidthInteger {
    /// The value truncated toward zero, clamped to the type's range; NaN is zero.
    @inlinable
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value <= Double(Self.min) {
            self = Self.min
        } else if value >= Double(Self.max) {
            // `Double(Int64.max)` rounds up to 2^63, so every value that reaches the conversion below is in range.
            self = Self.max
        } else {
            self = Self(value)  // cannot trap: strictly inside the type's range, not NaN
        }
    }
}
