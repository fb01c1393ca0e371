// swift-tools-version:6.1
import PackageDescription

/// One list of settings for every target.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "povver-server",
    // iOS: PovverKit, the app's services layer (`@Observable` needs iOS 17).
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .executable(name: "povver-server", targets: ["povver-server"]),
        .executable(name: "povver-workouts", targets: ["povver-workouts"]),
        .executable(name: "povver-auth", targets: ["povver-auth"]),
        .executable(name: "povver-subscription", targets: ["povver-subscription"]),
        .executable(name: "povver-analytics", targets: ["povver-analytics"]),
        .executable(name: "povver-coach", targets: ["povver-coach"]),
        .executable(name: "povver-recommendations", targets: ["povver-recommendations"]),
        .library(name: "PovverApp", targets: ["PovverApp"]),
        .library(name: "PovverModules", targets: ["PovverModules"]),
        .library(name: "PovverClient", targets: ["PovverClient"]),
        .library(name: "PovverKit", targets: ["PovverKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/vapor/async-kit.git", from: "1.22.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
    ],
    targets: [
        // MARK: Modules

        .target(
            name: "Contracts",
            path: "Modules/Contracts",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Platform",
            dependencies: [
                "Contracts",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "AsyncKit", package: "async-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            path: "Modules/Platform",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Fakes",
            dependencies: ["Contracts"],
            path: "Modules/Fakes",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Auth",
            dependencies: [
                "Contracts",
                "Platform",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Modules/Auth",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Subscription",
            dependencies: [
                "Contracts",
                "Platform",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            path: "Modules/Subscription",
            resources: [.copy("Resources/AppleRootCA-G3.der")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Conversations",
            dependencies: [
                "Contracts", "Platform", .product(name: "SQLKit", package: "sql-kit"), .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Modules/Conversations", resources: [.copy("Resources/phrasings.tsv")], swiftSettings: swiftSettings),
        .target(
            name: "Workouts",
            dependencies: [
                "Contracts", "Platform", .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            path: "Modules/Workouts",
            resources: [.copy("Resources/exercise-catalog.json")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Recommendations",
            dependencies: [
                "Contracts", "Platform", .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            path: "Modules/Recommendations", swiftSettings: swiftSettings),
        .target(
            name: "Analytics",
            dependencies: ["Contracts", "Platform", .product(name: "SQLKit", package: "sql-kit")],
            path: "Modules/Analytics",
            swiftSettings: swiftSettings
        ),

        .target(
            name: "Web",
            dependencies: [
                "Contracts", "Platform", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ],
            path: "Modules/Web",
            resources: [.copy("Resources/app")],
            swiftSettings: swiftSettings
        ),

        // MARK: Apps

        .target(
            name: "ProcessComposition",
            dependencies: [
                "Contracts", "Platform", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "Apps/ProcessComposition",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PovverModules",
            dependencies: [
                "Contracts", "Platform", "ProcessComposition", "Auth", "Subscription", "Conversations", "Workouts", "Recommendations",
                "Analytics", "Web", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Apps/PovverModules",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PovverApp",
            dependencies: [
                "Contracts", "Platform", "PovverModules", "ProcessComposition", "Auth",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            path: "Apps/PovverApp",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "povver-server",
            dependencies: ["PovverApp", "PovverModules", "Platform", .product(name: "Logging", package: "swift-log")],
            path: "Apps/povver-server",
            swiftSettings: swiftSettings
        ),

        .target(
            name: "WorkoutsTool",
            dependencies: ["Contracts", "Platform", "Workouts", .product(name: "Logging", package: "swift-log")],
            path: "Apps/WorkoutsTool",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "povver-workouts",
            dependencies: [
                "WorkoutsTool", "Platform", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Apps/povver-workouts",
            swiftSettings: swiftSettings
        ),

        .target(
            name: "AuthTool",
            dependencies: ["Contracts", "Platform", "Auth", .product(name: "Logging", package: "swift-log")],
            path: "Apps/AuthTool",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "povver-auth",
            dependencies: [
                "AuthTool", "PovverModules", "ProcessComposition", "Platform", "Contracts",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Apps/povver-auth",
            swiftSettings: swiftSettings
        ),

        .target(
            name: "SubscriptionTool",
            dependencies: [
                "Contracts", "Platform", "Subscription", .product(name: "Logging", package: "swift-log"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            path: "Apps/SubscriptionTool",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "povver-subscription",
            dependencies: [
                "SubscriptionTool", "ProcessComposition", "Auth", "Subscription", "Platform",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Apps/povver-subscription",
            swiftSettings: swiftSettings
        ),

        .target(
            name: "AnalyticsTool",
            dependencies: ["Contracts", "Platform", "Analytics", .product(name: "Logging", package: "swift-log")],
            path: "Apps/AnalyticsTool",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "povver-analytics",
            dependencies: [
                "AnalyticsTool", "ProcessComposition", "Auth", "Workouts", "Analytics", "Platform",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Apps/povver-analytics",
            swiftSettings: swiftSettings
        ),

        .target(
            name: "CoachTool",
            dependencies: ["Contracts", "Platform", "Conversations", .product(name: "Logging", package: "swift-log")],
            path: "Apps/CoachTool",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "povver-coach",
            dependencies: [
                "CoachTool", "ProcessComposition", "Auth", "Subscription", "Conversations", "Workouts", "Analytics", "Platform",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Apps/povver-coach",
            swiftSettings: swiftSettings
        ),

        .target(
            name: "RecommendationsTool",
            dependencies: ["Contracts", "Platform", "Recommendations"],
            path: "Apps/RecommendationsTool",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "povver-recommendations",
            dependencies: [
                "RecommendationsTool", "ProcessComposition", "Auth", "Subscription", "Workouts", "Recommendations", "Analytics",
                "Platform", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            path: "Apps/povver-recommendations",
            swiftSettings: swiftSettings
        ),

        // MARK: Clients

        // The typed client, generated at build time from Clients/PovverClient/openapi.json (the client's view of
        // openapi.json, written by Tools/openapi/client-document) by swift-openapi-generator's build plugin.
        // Transport: async-http-client on Linux, URLSession on Apple platforms.
        .target(
            name: "PovverClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(
                    name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client",
                    condition: .when(platforms: [.linux, .android, .windows])),
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux, .android, .windows])),
                .product(
                    name: "OpenAPIURLSession", package: "swift-openapi-urlsession",
                    condition: .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .macCatalyst])),
            ],
            path: "Clients/PovverClient",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // The app's services layer over PovverClient: sessions and token refresh, the coach's stream and cards, the
        // active workout with its offline queue, and the view models. Platform-neutral (Foundation, Observation).
        .target(
            name: "PovverKit",
            dependencies: [
                "PovverClient",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Clients/PovverKit",
            swiftSettings: swiftSettings
        ),

        // MARK: Tests

        .target(
            name: "TestSupport",
            dependencies: [
                "Contracts", "Platform", "Fakes", .product(name: "Logging", package: "swift-log"),
                .product(name: "X509", package: "swift-certificates"), .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ContractsTests",
            dependencies: [
                "Contracts", "Fakes", "Platform", "Auth", "TestSupport", "Subscription", "Conversations", "Workouts", "Recommendations",
                "Analytics",
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/ContractsTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PlatformTests",
            dependencies: [
                "Contracts", "Platform", "Fakes", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/PlatformTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AuthTests",
            dependencies: [
                "Auth", "Contracts", "Platform", "Fakes", "TestSupport", .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            path: "Tests/AuthTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SubscriptionTests",
            dependencies: [
                "Subscription", "Contracts", "Platform", "Fakes", "TestSupport",
                .product(name: "X509", package: "swift-certificates"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/SubscriptionTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WorkoutsTests",
            dependencies: ["Workouts", "WorkoutsTool", "Contracts", "Platform", "Fakes", "TestSupport"],
            path: "Tests/WorkoutsTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ConversationsTests",
            dependencies: [
                "Conversations", "CoachTool", "PovverModules", "ProcessComposition", "Auth", "Subscription", "Workouts", "Contracts",
                "Platform", "Fakes",
                "TestSupport", "PovverKit",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Tests/ConversationsTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AnalyticsTests",
            dependencies: [
                "Analytics", "AnalyticsTool", "PovverModules", "ProcessComposition", "Auth", "Workouts", "Contracts", "Platform", "Fakes",
                "TestSupport",
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            path: "Tests/AnalyticsTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RecommendationsTests",
            dependencies: [
                "Recommendations", "Contracts", "Platform", "Fakes", "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/RecommendationsTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "PovverApp", "PovverModules", "ProcessComposition", "Platform", "Contracts", "Auth", "AuthTool", "Subscription",
                "SubscriptionTool", "Workouts",
                "Analytics", "Recommendations", "RecommendationsTool", "Fakes", "Web",
                "TestSupport", "PovverClient", "PovverKit",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/ServerTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PovverKitTests",
            dependencies: [
                "PovverKit", "PovverClient", "PovverApp", "PovverModules", "Platform", "Contracts", "Auth", "Subscription", "TestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            path: "Tests/PovverKitTests",
            swiftSettings: swiftSettings
        ),
    ]
)

// Benchmarks that need the test PKI, built only on request (`POVVER_BENCHMARKS=1`, as Tools/bench/run.sh does) so
// the default build stays lean.
if Context.environment["POVVER_BENCHMARKS"] == "1" {
    package.targets.append(
        .executableTarget(
            name: "subscription-bench",
            dependencies: ["Subscription", "Platform", "Contracts", "TestSupport", .product(name: "Logging", package: "swift-log")],
            path: "Tools/subscription-bench",
            swiftSettings: swiftSettings
        ))
    package.targets.append(
        .executableTarget(
            name: "analytics-bench",
            dependencies: [
                "Analytics", "Workouts", "Fakes", "Platform", "Contracts", "TestSupport", .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            path: "Tools/analytics-bench",
            swiftSettings: swiftSettings
        ))
    package.targets.append(
        .executableTarget(
            name: "understanding-bench",
            dependencies: ["Conversations"],
            path: "Tools/understanding-bench",
            swiftSettings: swiftSettings
        ))
    package.targets.append(
        .executableTarget(
            name: "recommendations-bench",
            dependencies: [
                "Recommendations", "Analytics", "Workouts", "Fakes", "Platform", "Contracts", "TestSupport",
                .product(name: "Logging", package: "swift-log"), .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tools/recommendations-bench",
            swiftSettings: swiftSettings
        ))
}
