/// The name of each module of Povver, as `POVVER_MODULES`, compositions, contract keys, logs and the
/// `platform_erasures` rows spell it: one constant per module, so no two places spell a name.
public enum ModuleName {
    public static let auth = "auth"
    public static let subscription = "subscription"
    public static let conversations = "conversations"
    public static let workouts = "workouts"
    public static let recommendations = "recommendations"
    public static let analytics = "analytics"
    public static let web = "web"

    /// Every module, in the order the full server composes them.
    public static let all = [auth, subscription, conversations, workouts, recommendations, analytics, web]
}
