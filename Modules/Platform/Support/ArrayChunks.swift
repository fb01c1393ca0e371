extension Array {
    /// The array in consecutive pieces of at most `size` elements (multi-row statements in bounded batches).
    public func chunked(_ size: Int) -> [ArraySlice<Element>] {
        // cannot trap: chunk sizes are constants of the code
        precondition(size > 0, "chunks need a positive size")
        return stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
