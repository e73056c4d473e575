/// A refused source: what and why, e.g. "refused file:///etc/passwd: a remote source may only lead
/// to http(s) resources".
public struct SourceRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public var target: String
    public var reason: String

    package init(target: String, reason: String) {
        self.target = target
        self.reason = reason
    }

    public var description: String { "refused \(target): \(reason)" }
}
