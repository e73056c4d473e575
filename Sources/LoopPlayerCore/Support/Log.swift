import Logging

/// The library's logger. Hosts silence or redirect it through swift-log's `LoggingSystem`.
package let logger = Logger(label: "LoopPlayer")
