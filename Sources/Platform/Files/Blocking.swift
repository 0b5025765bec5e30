import Foundation

/// Runs blocking work (file reads and writes, a lock wait) on a Dispatch thread and awaits its
/// result, so the cooperative thread pool is never blocked: the one place Subweave hops off it.
package func onDispatch<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
    let outcome: Result<T, E> = await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: Result { () throws(E) in try work() }) }
    }
    return try outcome.get()
}
