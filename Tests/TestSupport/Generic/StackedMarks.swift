/// Text that is short in characters and long in bytes: each letter carries combining marks (U+0300–U+036F),
/// drawn from a fixed pseudo-random sequence so the bytes do not compress (PostgreSQL compresses long index
/// entries; a repeated mark would fit).
public enum StackedMarks {
    /// `letters` characters, each an "a" under `marks` combining marks (2 bytes each in UTF-8).
    public static func text(letters: Int, marks: Int = 40, seed: UInt32 = 7) -> String {
        var state = seed
        var scalars = String.UnicodeScalarView()
        for _ in 0..<letters {
            scalars.append("a")
            for _ in 0..<marks {
                state = state &* 1_103_515_245 &+ 12_345
                scalars.append(Unicode.Scalar(0x300 + (state >> 16) % 0x70)!)
            }
        }
        return String(scalars)
    }
}
