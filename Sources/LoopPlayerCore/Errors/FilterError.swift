/// Why a filter cannot be used.
public struct FilterError: Error, Sendable, Equatable, CustomStringConvertible {
    public let filter: String
    public let reason: String

    public init(filter: String, reason: String) {
        self.filter = filter
        self.reason = reason
    }

    public var description: String { "filter '\(filter)': \(reason)" }
}
