import Foundation

/// The generated client has a type per operation's answer, so the same workout arrives as a different type from
/// `startActiveWorkout`, `getActiveWorkout` and `addExercise`. The kit's models are read from any of them through
/// their JSON (the wire shape they share); a few kilobytes per answer.
enum Reshape {
    static func convert<Model: Decodable>(_ value: some Encodable, to model: Model.Type = Model.self) throws -> Model {
        do {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return try decoder.decode(Model.self, from: try JSONEncoder().encode(value))
        } catch {
            throw PovverError.unreadable("\(Model.self): \(error)")
        }
    }
}
