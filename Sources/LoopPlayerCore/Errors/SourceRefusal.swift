/// A refused source: what and why, e.g. "refused file:///etc/passwd: a remote source may only lead
/// to http(s) resources".
public struct SourceRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source or URL that was refused, as written.
    public var target: String
    /// Why it was refused, e.g. `the scheme ftp is not allowed`.
    public var reason: String

    package init(target: String, reason: String) {
        self.target = target
        self.reason = reason
    }

    /// `refused <target>: <reason>`, as shown to users.
    public var description: String { "refused \(target): \(reason)" }
}
