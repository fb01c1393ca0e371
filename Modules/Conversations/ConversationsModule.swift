import Contracts
import Foundation
import Logging
import Platform

/// Conversations: the AI coach. Conversations with their messages and artifacts, `streamAgentNormalized` over
/// Server-Sent Events with 4-lane routing (fast set commands, functional JSON intents, the slow lane's model
/// with tools), and the actions on artifacts. The model is `RuleBasedCoach` unless another is given.
public struct ConversationsModule: Sendable {
    public let settings: ConversationsSettings
    let services: CoachServices
    let stream: CoachStream
    let actions: ArtifactActions
    /// The coach's streams each user has open in this process.
    let streamLimit: UserStreamLimit

    public init(
        settings: ConversationsSettings, database: Database, premium: any PremiumGate, catalog: any ExerciseCatalog,
        analytics: any TrainingAnalytics, plans: any PlanLibrary, workouts: any ActiveWorkoutControl, events: any ProductEventSink,
        accounts: any AccountDirectory, analysis: (any TrainingAnalysisSummaries)? = nil, clock: any WallClock,
        ids: any IDGenerator, metrics: ServerMetrics, model: any CoachModel = RuleBasedCoach(),
        logger: Logger = Logger(label: "povver.coach")
    ) {
        self.settings = settings
        let services = CoachServices(
            premium: premium, catalog: catalog, analytics: analytics, plans: plans, workouts: workouts, events: events,
            accounts: accounts, analysis: analysis, store: ConversationStore(database: database, clock: clock, ids: ids),
            memory: CoachMemoryStore(database: database, clock: clock), clock: clock, ids: ids, metrics: metrics)
        self.services = services
        self.stream = CoachStream(services: services, model: model, logger: logger)
        self.streamLimit = UserStreamLimit(limit: settings.maxStreamsPerUser)
        self.actions = ArtifactActions(
            services: services,
            idempotency: IdempotencyStore(table: "conversations_idempotency", lockClass: 74_301, database: database, clock: clock),
            logger: logger)
    }

    /// The model the settings choose: the OpenAI-compatible client when `POVVER_LLM_BASE_URL` is set (with its own
    /// HTTP client, `ModelHTTPClient`), else the rule-based coach. `timer` times the model's answers and its
    /// connection waits (a test's clock in tests).
    public static func model(settings: ConversationsSettings, timer: any Clock<Duration>, metrics: ServerMetrics) -> any CoachModel {
        guard let baseURL = settings.llmBaseURL, let model = settings.llmModel else { return RuleBasedCoach() }
        return LanguageModelCoach(
            client: ChatCompletionsClient(
                settings: .init(
                    baseURL: baseURL, model: model, apiKey: settings.llmAPIKey, firstChunkTimeout: settings.llmFirstTokenTimeout,
                    totalTimeout: settings.llmTimeout, maxTokens: settings.llmMaxTokens, maxConnections: settings.llmMaxConnections,
                    connectionWait: settings.llmConnectionWait),
                clock: timer),
            maxSteps: settings.llmMaxSteps, maxToolCallsPerStep: settings.llmMaxToolCallsPerStep, metrics: metrics,
            logger: Logger(label: "povver.coach.model"))
    }

    public static var migrations: [Migration] { ConversationsMigrations.all }

    public var eraser: any UserDataEraser { ConversationsUserDataEraser(store: services.store) }

    public var plugin: ModulePlugin {
        ModulePlugin(
            name: ModuleName.conversations, migrations: Self.migrations,
            endpoints: Endpoint.linking(
                ConversationsEndpoints(module: self).all + ConversationsEndpoints(module: self).memory, ConversationsEndpoints.links),
            services: [
                actions.idempotency.purger(name: "conversations_idempotency_purge", logger: Logger(label: "conversations.idempotency"))
            ],
            eraser: eraser)
    }
}

/// Erases the user's conversations, messages, artifacts and keyed answers.
public struct ConversationsUserDataEraser: UserDataEraser {
    public let module = ModuleName.conversations
    let store: ConversationStore

    public func eraseUserData(userId: String) async throws {
        try await store.erase(userId: userId)
    }
}
