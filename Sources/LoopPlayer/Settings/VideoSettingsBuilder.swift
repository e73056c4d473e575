/// Builds a list of settings; supports `if`, `if/else`, `switch`, `for`, optionals and nesting.
@resultBuilder
public enum VideoSettingsBuilder {
    /// Lets a setting stand as a statement.
    public static func buildExpression<S: Setting>(_ setting: S) -> [any Setting] { [setting] }
    /// Lets an optional setting stand as a statement: nil adds nothing.
    public static func buildExpression<S: Setting>(_ setting: S?) -> [any Setting] { setting.map { [$0] } ?? [] }
    /// Lets a list of settings stand as a statement, as if written one by one.
    public static func buildExpression(_ settings: [any Setting]) -> [any Setting] { settings }
    /// Joins the statements of a block, in order.
    public static func buildBlock(_ parts: [any Setting]...) -> [any Setting] { parts.flatMap { $0 } }
    /// An `if` without `else`: its settings when taken, none otherwise.
    public static func buildOptional(_ part: [any Setting]?) -> [any Setting] { part ?? [] }
    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first part: [any Setting]) -> [any Setting] { part }
    /// The other branch of an `if`/`else` or `switch`.
    public static func buildEither(second part: [any Setting]) -> [any Setting] { part }
    /// Joins the settings of every pass of a `for` loop, in order.
    public static func buildArray(_ parts: [[any Setting]]) -> [any Setting] { parts.flatMap { $0 } }
    /// A block under `if #available`, passed through unchanged.
    public static func buildLimitedAvailability(_ part: [any Setting]) -> [any Setting] { part }
}
