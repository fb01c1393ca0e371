import Contracts
import Foundation

/// How an admin CLI ends when its command fails (not its arguments, which the argument parser answers with
/// usage and status 64): one line for standard error and a `sysexits.h` status, so scripts can tell a refused
/// request from a broken run.
public struct CommandLineFailure: Sendable, Equatable {
    /// The line to print, without the tool's name. A message may quote what was asked for or stored, so an error's
    /// is taken through `TerminalText` (control characters as escapes, on one line).
    public let message: String
    /// 65 (`EX_DATAERR`): the request was refused for what it asked (bad input, an unknown id, a conflict);
    /// running it again unchanged gives the same answer. 70 (`EX_SOFTWARE`): anything else (the database could not
    /// be reached, an internal error).
    public let status: Int32

    public init(message: String, status: Int32) {
        self.message = message
        self.status = status
    }

    public init(_ error: any Error) {
        if let error = error as? ServiceError, error.code != .internalError {
            let field = error.details["field"].map { " (\($0))" } ?? ""
            message = TerminalText.escaped("\(error.code.rawValue): \(error.message)\(field)")
            status = 65
        } else {
            message = TerminalText.escaped("\(error)")
            status = 70
        }
    }

    /// Writes the line to standard error as `tool` says it and returns the status to exit with.
    public func report(as tool: String) -> Int32 {
        FileHandle.standardError.write(Data("\(tool): \(message)\n".utf8))
        return status
    }
}
