import Foundation
import TestScratch

/// A temporary directory that is removed when the last reference to it goes.
final class Scratch {
    let path: String

    init() throws {
        path = try ScratchDirectory.make("graphstore-home").path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
