import Contracts
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file created for its owner's eyes only (mode 0600) at a path where nothing was: `open` with `O_CREAT | O_EXCL
/// | O_NOFOLLOW`, so nothing put there in the meantime (a file, or a symbolic link pointing elsewhere) is written
/// through or overwritten, and there is no moment between a check and the creation for it to appear in. What is
/// written goes through the descriptor, never through the name again.
public final class OwnerOnlyFile {
    /// Where the file was created.
    public let path: String
    private var descriptor: Int32

    /// Creates the file. Throws `INVALID_ARGUMENT` (field `path`) when anything is at `path` already (a symbolic link
    /// included), `FAILED_PRECONDITION` when it cannot be created (no such directory, no permission).
    public init(creating path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
        guard descriptor >= 0 else {
            let code = errno
            if code == EEXIST || code == ELOOP {
                throw ServiceError.invalidArgument(field: "path", reason: "exists already", message: "The file \(path) exists already.")
            }
            throw ServiceError(
                .failedPrecondition, "Cannot create \(path): \(String(cString: strerror(code))).", details: ["field": "path"])
        }
        // The process's umask may only have taken bits away; the owner must still be able to read and write it.
        _ = fchmod(descriptor, 0o600)
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        if descriptor >= 0 { _ = close(descriptor) }
    }

    /// Appends the whole content of the file at `source`.
    public func append(contentsOf source: String) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw Self.failure("read \(source)") }
        defer { _ = close(input) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.failure("read \(source)")
            }
            try buffer.withUnsafeBytes { bytes in
                guard let start = bytes.baseAddress else { return }
                var offset = 0
                while offset < count {
                    let written = write(descriptor, start + offset, count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw Self.failure("write \(path)")
                    }
                    offset += written
                }
            }
        }
    }

    /// Makes what was written durable (`fsync`) and closes the file.
    public func finish() throws {
        guard fsync(descriptor) == 0 else { throw Self.failure("write \(path)") }
        _ = close(descriptor)
        descriptor = -1
    }

    /// Closes and removes the file, after a failure: a half-written copy must not pass for a whole one.
    public func discard() {
        if descriptor >= 0 { _ = close(descriptor) }
        descriptor = -1
        _ = unlink(path)
    }

    private static func failure(_ doing: String) -> ServiceError {
        ServiceError(.internalError, "Could not \(doing): \(String(cString: strerror(errno))).")
    }
}
