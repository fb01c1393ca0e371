import Foundation

/// A multinomial logistic regression over a message's features (`IntentFeatures`), trained by stochastic gradient
/// descent: the examples in their given order, a fixed number of passes, a learning rate that falls each pass, no
/// randomness. The same examples always give the same weights, and the same message the same answer.
struct IntentClassifier: Sendable {
    static let passes = 30
    static let firstRate = 0.2
    static let rateDecay = 0.05

    let intents: [MessageIntent]
    private let featureIndex: [String: Int]
    /// Feature-major: the weight of feature f for intent c is at f × intents.count + c.
    private let weights: [Double]
    private let bias: [Double]

    /// Trains on the examples, each a message's features and its intent.
    init(examples: [(features: [String], intent: MessageIntent)]) {
        let intents = MessageIntent.allCases
        let intentIndex = Dictionary(uniqueKeysWithValues: intents.enumerated().map { ($1, $0) })
        var featureIndex: [String: Int] = [:]
        let encoded: [(features: [Int], intent: Int)] = examples.map { example in
            let features = example.features.map { name in
                if let index = featureIndex[name] { return index }
                featureIndex[name] = featureIndex.count
                return featureIndex.count - 1
            }
            return (Array(Set(features)).sorted(), intentIndex[example.intent] ?? 0)
        }
        let classCount = intents.count
        var weights = [Double](repeating: 0, count: featureIndex.count * classCount)
        var bias = [Double](repeating: 0, count: classCount)
        var probabilities = [Double](repeating: 0, count: classCount)
        weights.withUnsafeMutableBufferPointer { weights in
            for pass in 0..<Self.passes {
                let rate = Self.firstRate / (1 + Self.rateDecay * Double(pass))
                for example in encoded {
                    Self.probabilities(example.features, weights: UnsafeBufferPointer(weights), bias: bias, into: &probabilities)
                    for intent in 0..<classCount {
                        let gradient = probabilities[intent] - (intent == example.intent ? 1 : 0)
                        let step = rate * gradient
                        bias[intent] -= step
                        for feature in example.features { weights[feature * classCount + intent] -= step }
                    }
                }
            }
        }
        self.intents = intents
        self.featureIndex = featureIndex
        self.weights = weights
        self.bias = bias
    }

    /// Whether it was trained on nothing.
    var isUntrained: Bool { featureIndex.isEmpty }

    /// The most probable intent for the features, with its probability. Features the training never saw are ignored;
    /// with no training at all every intent is equally probable and the first (`intents[0]`) is answered.
    func classify(_ features: [String]) -> (intent: MessageIntent, probability: Double) {
        let known = Array(Set(features.compactMap { featureIndex[$0] })).sorted()
        var probabilities = [Double](repeating: 0, count: intents.count)
        weights.withUnsafeBufferPointer { weights in
            Self.probabilities(known, weights: weights, bias: bias, into: &probabilities)
        }
        var best = 0
        for index in probabilities.indices where probabilities[index] > probabilities[best] { best = index }
        return (intents[best], probabilities[best])
    }

    /// The softmax of the intents' scores for the features.
    private static func probabilities(
        _ features: [Int], weights: UnsafeBufferPointer<Double>, bias: [Double], into probabilities: inout [Double]
    ) {
        let classCount = bias.count
        for intent in 0..<classCount { probabilities[intent] = bias[intent] }
        for feature in features {
            let base = feature * classCount
            for intent in 0..<classCount { probabilities[intent] += weights[base + intent] }
        }
        let top = probabilities.max() ?? 0
        var total = 0.0
        for intent in 0..<classCount {
            probabilities[intent] = exp(probabilities[intent] - top)
            total += probabilities[intent]
        }
        for intent in 0..<classCount { probabilities[intent] /= total }
    }
}
