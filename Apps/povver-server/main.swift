import Foundation
import Logging
import Platform
import PovverApp
import PovverModules

let environment = ProcessInfo.processInfo.environment
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--help" || arguments.first == "-h" {
    print(
        """
        usage: povver-server                 serve (configured by POVVER_* variables; see the README)
               povver-server backup FILE     write a consistent copy of the SQLite database to FILE while it serves
               povver-server openapi [FILE]  write the default composition's OpenAPI document (the repository's
                                             openapi.json) to FILE, or to standard output
        """)
    exit(0)
}
if arguments.first == "backup" {
    guard arguments.count == 2 else {
        FileHandle.standardError.write(Data("povver-server: usage: povver-server backup FILE\n".utf8))
        exit(64)
    }
    exit(await BackupCommand.run(to: arguments[1], environment: environment))
}
if arguments.first == "openapi" {
    guard arguments.count <= 2 else {
        FileHandle.standardError.write(Data("povver-server: usage: povver-server openapi [FILE]\n".utf8))
        exit(64)
    }
    exit(await OpenAPICommand.run(to: arguments.count == 2 ? arguments[1] : nil))
}
if let unknown = arguments.first {
    FileHandle.standardError.write(Data("povver-server: unknown command \(unknown) (try --help)\n".utf8))
    exit(64)
}

// Configuration and the module list are checked before anything opens: a bad value or a module missing what
// another consumes stops the start with one line naming it.
let config: AppConfig
let modules: [ModuleDefinition]
do {
    config = try AppConfig.fromEnvironment(environment, stdoutIsTerminal: LogSetup.stdoutIsTerminal)
    modules = try PovverModules.definitions(config.modules, environment: environment)
    _ = try Composition.order(modules, rootConsumes: PovverServer.consumes)
} catch {
    FileHandle.standardError.write(Data("povver-server: \(error)\n".utf8))
    exit(64)
}
LogSetup.bootstrap(format: config.logFormat, level: environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info)
let logger = Logger(label: "povver-server")
do {
    try await PovverServer.build(config: config, modules: modules, logger: logger).run()
} catch {
    logger.critical("server failed", metadata: ["event": "server_failed", "error": "\(error)"])
    exit(1)
}
