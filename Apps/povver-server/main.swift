import Foundation
import Logging
import Platform
import PovverApp

let environment = ProcessInfo.processInfo.environment
let config: AppConfig
do {
    config = try AppConfig.fromEnvironment(environment, stdoutIsTerminal: LogSetup.stdoutIsTerminal)
} catch {
    FileHandle.standardError.write(Data("povver-server: \(error)\n".utf8))
    exit(64)
}
LogSetup.bootstrap(format: config.logFormat, level: environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info)
let logger = Logger(label: "povver-server")
do {
    try await PovverServer.build(config: config, logger: logger).run()
} catch {
    logger.critical("server failed", metadata: ["event": "server_failed", "error": "\(error)"])
    exit(1)
}
