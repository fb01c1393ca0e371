import Synchronization

/// Passes streamed text through until it has said `limit` sentences, then drops the rest (workout mode's "at most
/// two sentences", whatever the model does). A sentence ends at `.`, `!` or `?` followed by white space, so
/// "8.5 kg" is one sentence; the text before the white space that ends the last sentence is all that is passed.
final class SentenceCap: Sendable {
    let limit: Int
    private struct State {
        var ended = 0
        var afterTerminator = false
        var closed = false
    }
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// The part of `text` still within the limit (empty once it is reached).
    func admit(_ text: String) -> String {
        state.withLock { state in
            guard !state.closed else { return "" }
            var kept = ""
            for character in text {
                if state.afterTerminator && character.isWhitespace {
                    state.ended += 1
                    if state.ended >= limit {
                        state.closed = true
                        break
                    }
                }
                state.afterTerminator = [".", "!", "?"].contains(character)
                kept.append(character)
            }
            return kept
        }
    }

    /// `say`, capped.
    func limiting(_ say: @escaping @Sendable (String) async throws -> Void) -> @Sendable (String) async throws -> Void {
        { text in
            let kept = self.admit(text)
            if !kept.isEmpty { try await say(kept) }
        }
    }
}
