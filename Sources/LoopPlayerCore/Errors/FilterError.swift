/// Why a filter cannot be used.
public struct FilterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The filter at fault: its name, or the text it was parsed from.
    public let filter: String
    /// What is wrong with it, e.g. a value out of range.
    public let reason: String

    /// An error for `filter`, explaining `reason`.
    package init(filter: String, reason: String) {
        self.filter = filter
        self.reason = reason
    }

    /// `filter '<name>': <reason>`, as shown to users.
    public var description: String { "filter '\(filter)': \(reason)" }
}
