/// Fields clients also send under another name (the seeds' camelCase `workoutId`, legacy `weight`,
/// `templateIds`): either name is read. Both sent with different values is `INVALID_ARGUMENT` naming the field,
/// since which one the client meant cannot be known; both with the same value is accepted.
extension KeyedDecodingContainer {
    public func decodeIfPresent<T: Decodable & Equatable>(_ type: T.Type, forKey key: Key, alias: Key) throws -> T? {
        let value = try decodeIfPresent(type, forKey: key)
        let aliased = try decodeIfPresent(type, forKey: alias)
        if let value, let aliased, value != aliased {
            // Named where it is in the body (`exercises[0].sets[1].target_reps`), as decoding errors are.
            let field = ServiceError.fieldPath(codingPath + [key])
            throw ServiceError.invalidArgument(
                field: field, reason: "differs from \(alias.stringValue)",
                message: "The fields '\(key.stringValue)' and '\(alias.stringValue)' name the same thing but differ; send one.")
        }
        return value ?? aliased
    }

    /// The same, for a required field: missing under both names names `key`.
    public func decode<T: Decodable & Equatable>(_ type: T.Type, forKey key: Key, alias: Key) throws -> T {
        guard let value = try decodeIfPresent(type, forKey: key, alias: alias) else { return try decode(type, forKey: key) }
        return value
    }
}
