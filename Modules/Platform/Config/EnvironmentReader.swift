import Contracts
import Foundation

/// Reads settings from environment variables the same way for Platform and every module: blank counts as unset,
/// and an unusable value throws `INVALID_ARGUMENT` naming the variable (`details.field`), so a bad value stops the
/// start with its name.
public struct EnvironmentReader: Sendable {
    public let environment: [String: String]

    public init(_ environment: [String: String]) {
        self.environment = environment
    }

    /// The trimmed value, or nil when unset or blank.
    public func value(_ name: String) -> String? {
        guard let raw = environment[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        return raw
    }

    /// A comma-separated list, blanks dropped.
    public func list(_ name: String) -> [String] {
        (value(name) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A whole number within `range`, or `fallback` when unset.
    public func integer(_ name: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
        guard let raw = value(name) else { return fallback }
        guard let number = Int(raw), range.contains(number) else {
            throw Self.invalid(name, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return number
    }

    /// One of `allowed`, or `fallback` when unset.
    public func choice(_ name: String, default fallback: String, allowed: [String]) throws -> String {
        let raw = value(name) ?? fallback
        guard allowed.contains(raw) else {
            let options =
                allowed.count == 2
                ? "\(allowed[0]) or \(allowed[1])" : allowed.dropLast().joined(separator: ", ") + " or \(allowed.last ?? "")"
            throw Self.invalid(name, "\(name) must be \(options).")
        }
        return raw
    }

    /// The error for an unusable value of `name`.
    public static func invalid(_ name: String, _ message: String) -> ServiceError {
        ServiceError(.invalidArgument, message, details: ["field": name])
    }
}
