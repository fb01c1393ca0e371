import Foundation

/// The time zones a request may name: the IANA names this system knows. Validation and the OpenAPI document's
/// `TimeZone` enumeration read the same list, so a client checking against the document is never refused.
public enum TimeZoneNames {
    /// The system's IANA names, with `UTC` and `GMT` (which some systems leave out of the list but every one reads).
    public static let known: [String] = Set(
        TimeZone.knownTimeZoneIdentifiers + ["UTC", "GMT"].filter { TimeZone(identifier: $0) != nil }
    ).sorted()
    private static let knownSet = Set(known)

    public static func isKnown(_ identifier: String) -> Bool { knownSet.contains(identifier) }
}
