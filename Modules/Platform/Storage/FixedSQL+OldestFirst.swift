extension FixedSQL {
    /// Deletes up to `?` (the second value) rows of `table` whose `column` is before `?` (the first value), oldest
    /// first by `order` (default: `column`; an index on it finds them), and returns their `key`s: a purge chunk for
    /// `Database.deleteInChunks`. On PostgreSQL, replicas purging at the same moment take different rows
    /// (`SKIP LOCKED`) instead of waiting on each other's. Names are the caller's constants, never input.
    public static func deleteOldest(from table: String, key: String, before column: String, order: String? = nil) -> FixedSQL {
        let order = order ?? column
        let select = "SELECT \(key) FROM \(table) WHERE \(column) < ? ORDER BY \(order) LIMIT ?"
        return FixedSQL(
            sqlite: "DELETE FROM \(table) WHERE \(key) IN (\(select)) RETURNING \(key)",
            postgres: "DELETE FROM \(table) WHERE \(key) IN (\(select) FOR UPDATE SKIP LOCKED) RETURNING \(key)")
    }
}
