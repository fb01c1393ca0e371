import Foundation
import Logging
import Platform

/// Process-wide logging setup for the executables: JSON lines when stdout is not a terminal (or when asked).
public enum LogSetup {
    public static func bootstrap(format: AppConfig.LogFormat, level: Logger.Level = .info) {
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                switch format {
                case .json: JSONLogHandler(label: label)
                case .text: StreamLogHandler.standardOutput(label: label)
                }
            handler.logLevel = level
            return handler
        }
    }

    public static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}
