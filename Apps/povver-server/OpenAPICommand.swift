import Foundation
import Logging
import Platform
import PovverApp

/// `povver-server openapi [FILE]`: the default composition's OpenAPI document, as the repository's `openapi.json`
/// holds it, written to FILE (replaced whole) or to standard output. Reads no `POVVER_*` variable and opens no
/// database of the server's. Exit status: 0 written; 70 anything else.
enum OpenAPICommand {
    static func run(to path: String?) async -> Int32 {
        var logger = Logger(label: "povver-server")
        logger.logLevel = .error
        do {
            let text = try await PovverServer.defaultOpenAPIText(logger: logger)
            if let path {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } else {
                FileHandle.standardOutput.write(Data(text.utf8))
            }
            return 0
        } catch {
            return CommandLineFailure(error).report(as: "povver-server")
        }
    }
}
