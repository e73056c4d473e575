/// Builds a list of settings; supports `if`, `if/else`, `switch`, `for`, optionals and nesting.
@resultBuilder
public enum VideoSettingsBuilder {
    public static func buildExpression<S: Setting>(_ setting: S) -> [any Setting] { [setting] }
    public static func buildExpression<S: Setting>(_ setting: S?) -> [any Setting] { setting.map { [$0] } ?? [] }
    public static func buildExpression(_ settings: [any Setting]) -> [any Setting] { settings }
    public static func buildBlock(_ parts: [any Setting]...) -> [any Setting] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [any Setting]?) -> [any Setting] { part ?? [] }
    public static func buildEither(first part: [any Setting]) -> [any Setting] { part }
    public static func buildEither(second part: [any Setting]) -> [any Setting] { part }
    public static func buildArray(_ parts: [[any Setting]]) -> [any Setting] { parts.flatMap { $0 } }
    public static func buildLimitedAvailability(_ part: [any Setting]) -> [any Setting] { part }
}
