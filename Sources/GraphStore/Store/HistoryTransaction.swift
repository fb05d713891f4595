import Foundation

/// One saved transaction of a store's persistent history: a row of `ATRANSACTION` with its
/// changes (Core Data's `NSPersistentHistoryTransaction`).
///
/// ```swift
/// let transactions = try store.fetchHistory(after: savedToken)
/// for transaction in transactions {
///     print(transaction.timestamp, transaction.author ?? "-", transaction.changes.count)
/// }
/// savedToken = transactions.last?.token ?? savedToken
/// ```
public struct HistoryTransaction: Sendable, Hashable {
    /// The transaction's key (`Z_PK` of `ATRANSACTION`); keys grow with every save.
    public var number: Int64
    /// When the transaction was saved (`ZTIMESTAMP`).
    public var timestamp: Date
    /// The saving context's ``ManagedObjectContext/transactionAuthor``, if it had one.
    public var author: String?
    /// The saving app's bundle identifier (GraphStore writes none: Linux has no bundle).
    public var bundleID: String?
    /// The saving process's name.
    public var processID: String?
    /// The saving context's ``ManagedObjectContext/name``, if it had one.
    public var contextName: String?
    /// The changes, in the order they were recorded.
    public var changes: [HistoryChange]

    /// The token that stands for this transaction: history after it starts with the next.
    public var token: HistoryToken { HistoryToken(transactionNumber: number) }
}

/// A bookmark in a store's persistent history (Core Data's `NSPersistentHistoryToken`):
/// the key of the last transaction a reader has seen.
///
/// GraphStore's token is the transaction's key itself, so it can be kept as a number
/// (Core Data's token is opaque and also names the store).
///
/// ```swift
/// let token = HistoryToken(transactionNumber: 38)
/// let newer = try store.fetchHistory(after: token)     // transactions 39, 40, …
/// ```
public struct HistoryToken: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The key (`Z_PK` of `ATRANSACTION`) of the transaction the token stands for.
    public var transactionNumber: Int64

    /// A token for the transaction with key `transactionNumber`.
    public init(transactionNumber: Int64) {
        self.transactionNumber = transactionNumber
    }

    /// Orders tokens as their transactions were saved.
    public static func < (lhs: HistoryToken, rhs: HistoryToken) -> Bool { lhs.transactionNumber < rhs.transactionNumber }

    /// The transaction key.
    public var description: String { "\(transactionNumber)" }
}
