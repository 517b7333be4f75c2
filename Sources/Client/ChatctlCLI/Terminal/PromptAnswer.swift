/// One answer typed at a prompt: ^C is told from ^D, so an interactive login can say
/// which question went unanswered and still end as an interrupted program does.
package enum PromptAnswer: Sendable, Equatable {
    case line(String)
    case endOfInput
    case interrupted
}

extension TerminalIO {
    /// For terminals that only read lines (tests' captures): no answer is end of input.
    package func ask(_ prompt: String, echo: Bool) -> PromptAnswer {
        let line = echo ? readLine(prompt: prompt) : readSecret(prompt: prompt)
        return line.map(PromptAnswer.line) ?? .endOfInput
    }
}
