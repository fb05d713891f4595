/// A Swift value handed to C code as the context pointer of a callback (an SQL function's
/// user data, a trace hook's context): copied to an allocation of its own, whose address C
/// keeps and passes back.
///
/// Who frees it is part of each use: SQLite frees an SQL function's context through the
/// destructor it is given (`xDestroy`, when the function is replaced or the connection
/// closes); a trace hook's context is freed by the connection when the hook is removed or
/// the connection closes. Reading a context after it was released is undefined: each use
/// documents why C cannot call back after that point.
///
/// ```swift
/// let context = CallbackContext.make(body)                 // a closure, a reference
/// let again = CallbackContext.value(at: context, as: Body.self)
/// CallbackContext.release(context, as: Body.self)
/// ```
enum CallbackContext {
    /// A new allocation holding `value`.
    static func make<Value>(_ value: Value) -> UnsafeMutableRawPointer {
        let pointer = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        pointer.initialize(to: value)
        return UnsafeMutableRawPointer(pointer)
    }

    /// The value held at a context made by ``make(_:)`` with the same type.
    static func value<Value>(at context: UnsafeRawPointer, as type: Value.Type) -> Value {
        context.assumingMemoryBound(to: Value.self).pointee
    }

    /// Calls `body` with the value held at a context made by ``make(_:)`` with the same
    /// type, borrowed where it lies (a closure called this way is not retained per call).
    static func withValue<Value, Result>(at context: UnsafeRawPointer, as type: Value.Type, _ body: (borrowing Value) throws -> Result) rethrows -> Result {
        try body(context.assumingMemoryBound(to: Value.self).pointee)
    }

    /// Destroys the value and frees the allocation.
    static func release<Value>(_ context: UnsafeMutableRawPointer, as type: Value.Type) {
        let pointer = context.assumingMemoryBound(to: Value.self)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
