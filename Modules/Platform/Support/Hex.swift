/// Lower-case hexadecimal, without going through `String(format:)` (which costs a formatter per byte).
extension Sequence where Element == UInt8 {
    public var hexString: String {
        let bytes = Array(self)
        return String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            let digits: StaticString = "0123456789abcdef"
            digits.withUTF8Buffer { digits in
                for (index, byte) in bytes.enumerated() {
                    buffer[2 * index] = digits[Int(byte >> 4)]
                    buffer[2 * index + 1] = digits[Int(byte & 0x0F)]
                }
            }
            return bytes.count * 2
        }
    }
}
