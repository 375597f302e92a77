import Foundation

/// The process environment, read through Foundation in one place.
enum ProcessEnvironment {
    static var variables: [String: String] { ProcessInfo.processInfo.environment }
}
