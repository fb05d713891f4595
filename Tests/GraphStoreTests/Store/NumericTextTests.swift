import Foundation
import Testing
@testable import GraphStore

/// Numbers stored as text are read where they lie, as SQLite reads them: the white space
/// SQLite skips (space, tab, line feed, vertical tab, form feed, carriage return) around
/// them, nothing else; a long text that is no number is unreadable, never misread.
@Suite struct NumericTextTests {
    @Test(arguments: [
        (" \t12.5\r\n", 12.5), ("\u{0B}7\u{0C}", 7), ("-.5", -0.5), ("+3e2", 300), ("1E-2", 0.01),
    ])
    func numbersInTextAreRead(_ text: String, _ number: Double) throws {
        #expect(try Self.double(stored: text) == .double(number))
    }

    @Test(arguments: ["1e", ".", "-", "1.2.3", "0x10", "inf", "12 5", "\u{A0}4", String(repeating: "t", count: 1 << 20)])
    func otherTextIsUnreadable(_ text: String) throws {
        #expect(throws: StoreError.self) { try Self.double(stored: text) }
    }

    @Test func theByteRulesAgreeWithTheTextOnes() {
        for text in ["12", "1.", ".5", "+1e+5", "e5", "1e+", "", "١٢"] {
            let viaBytes = text.utf8CString.withUnsafeBufferPointer { chars in
                chars.withMemoryRebound(to: UInt8.self) { ColumnAccessor.isNumeric(UnsafeBufferPointer(rebasing: $0.dropLast())) }
            }
            #expect(viaBytes == ColumnAccessor.isNumeric(text), "\(text)")
        }
    }

    /// The `double` attribute of a feedback object whose column holds `text`.
    static func double(stored text: String) throws -> AttributeValue? {
        let path = try Fixtures.newStorePath()
        let model = try Fixtures.layoutModel()
        let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: model))
        try context.insert("feedback").setValue(.double(1), forKey: "double")
        try context.save()
        let raw = try Connection(path: path, mode: .readWrite)
        try raw.prepare("UPDATE ZFEEDBACK SET ZDOUBLE = ?").execute([.text(text)])
        let object = try #require(try ManagedObjectContext(store: PersistentStore(path: path, model: model)).fetch("feedback").first)
        return try object.value(forKey: "double")
    }
}
