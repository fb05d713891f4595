import Foundation
import Testing
@testable import GraphStoreShell

/// Errors reach the user as sentences: Foundation's as the system's reason, never as an
/// `Error Domain=NSCocoaErrorDomain …` dump.
@Suite struct ErrorSentenceTests {
    @Test func foundationErrorsGiveTheSystemsReason() {
        do {
            _ = try FileManager.default.contentsOfDirectory(atPath: "/nonexistent/graphstore")
            Issue.record("the directory should not exist")
        } catch {
            let message = ShellError.describing(error, interrupted: false).message
            #expect(message == "No such file or directory")
            #expect(!message.contains("NSCocoaErrorDomain"))
        }
    }

    @Test func typedErrorsKeepTheirOwnDescription() {
        #expect(ShellError.describing(ShellError("no store is open"), interrupted: false).message == "no store is open")
        #expect(ShellError.sentence(for: POSIXError(.EACCES)) == "Permission denied")
    }
}
