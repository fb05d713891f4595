import CZlib
import Foundation

/// Raw DEFLATE streams (no zlib or gzip header), as Core Data stores `Z_MODELCACHE`.
///
/// Decompression is bounded (``decompress(_:limit:)``) so a damaged or hostile blob
/// cannot exhaust memory, and every zlib failure becomes a ``RawDeflateError``.
enum RawDeflate {
    /// The largest output accepted by default: model caches are a few hundred kilobytes.
    static let defaultLimit = 256 << 20

    /// Inflates a raw DEFLATE stream (zlib window bits -15).
    static func decompress(_ input: Data, limit: Int = defaultLimit) throws(RawDeflateError) -> Data {
        guard !input.isEmpty else { throw .empty }
        // zlib counts input in 32 bits; SQLite blobs stay far below that.
        guard input.count <= Int(UInt32.max) else { throw .tooLarge(limit: Int(UInt32.max)) }
        var stream = z_stream()
        let initStatus = graphstore_inflate_init_raw(&stream)
        guard initStatus == Z_OK else { throw .zlib(code: initStatus, message: "inflateInit2 failed") }
        defer { inflateEnd(&stream) }

        let chunkSize = 64 * 1024
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var output = Data()
        // withUnsafeBytes rethrows untyped errors, so the outcome travels out as a Result.
        let outcome: Result<Void, RawDeflateError> = input.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: Bytef.self).baseAddress else { return .failure(.empty) }
            stream.next_in = UnsafeMutablePointer(mutating: base)
            stream.avail_in = uInt(raw.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(chunkSize)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunkSize - Int(stream.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit { return .failure(.tooLarge(limit: limit)) }
                switch status {
                case Z_STREAM_END:
                    return .success(())
                case Z_OK, Z_BUF_ERROR:
                    // No more input and the stream has not ended: the blob was cut short.
                    if stream.avail_in == 0, produced < chunkSize { return .failure(.truncated(consumed: raw.count, produced: output.count)) }
                    if status == Z_BUF_ERROR, produced == 0 { return .failure(.truncated(consumed: raw.count, produced: output.count)) }
                case Z_DATA_ERROR:
                    return .failure(.corrupt(message: stream.msg.map { String(cString: $0) } ?? "invalid deflate data", offset: raw.count - Int(stream.avail_in)))
                default:
                    return .failure(.zlib(code: status, message: stream.msg.map { String(cString: $0) } ?? "inflate failed"))
                }
            }
        }
        try outcome.get()
        return output
    }

    /// Deflates bytes into a raw DEFLATE stream, the form `Z_MODELCACHE` holds. Used by
    /// tests to build caches and available to a writer that stores one.
    static func compress(_ input: Data) throws(RawDeflateError) -> Data {
        guard input.count <= Int(UInt32.max) / 2 else { throw .tooLarge(limit: Int(UInt32.max) / 2) }
        var stream = z_stream()
        let initStatus = deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard initStatus == Z_OK else { throw .zlib(code: initStatus, message: "deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        var source = [UInt8](input)
        let bound = Int(deflateBound(&stream, uLong(source.count)))
        var output = [UInt8](repeating: 0, count: bound)
        let status = source.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int32 in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw .zlib(code: status, message: "deflate did not finish") }
        return Data(output[0..<Int(stream.total_out)])
    }
}

/// Why a raw DEFLATE stream could not be inflated.
enum RawDeflateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// There were no bytes at all.
    case empty
    /// The stream stopped before its end marker: the blob was cut short.
    case truncated(consumed: Int, produced: Int)
    /// The bytes are not DEFLATE data (zlib's message and the offset where it gave up).
    case corrupt(message: String, offset: Int)
    /// The output grew past the limit.
    case tooLarge(limit: Int)
    /// Another zlib failure.
    case zlib(code: Int32, message: String)

    var description: String {
        switch self {
        case .empty: "the blob is empty"
        case .truncated(let consumed, let produced): "the compressed stream is truncated (it ends after \(consumed) bytes, \(produced) bytes inflated, without an end marker)"
        case .corrupt(let message, let offset): "not raw DEFLATE data (\(message) at byte \(offset))"
        case .tooLarge(let limit): "it inflates to more than \(limit) bytes"
        case .zlib(let code, let message): "zlib error \(code): \(message)"
        }
    }
}
