import Dispatch
import Foundation
import Synchronization

/// `work` of each index below `count`, worked out on every core and given in index order; with
/// `stopping`, nil as soon as a result is one it says to stop at (the work not started is not).
///
/// Blocks the calling thread until done (call it off the cooperative pool, or for work of a
/// few milliseconds).
package func onEveryCore<T: Sendable>(_ count: Int, stopping: (@Sendable (T) -> Bool)? = nil, _ work: @Sendable (Int) -> T) -> [T]? {
    guard count > 1 else {
        guard count == 1 else { return [] }
        let only = work(0)
        return stopping?(only) == true ? nil : [only]
    }
    let results = Mutex<[T?]>(Array(repeating: nil, count: count))
    let stopped = Atomic<Bool>(false)
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: min(count, max(1, ProcessInfo.processInfo.activeProcessorCount))) { _ in
        while !stopped.load(ordering: .relaxed) {
            let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard index < count else { return }
            let result = work(index)
            if stopping?(result) == true {
                stopped.store(true, ordering: .relaxed)
                return
            }
            results.withLock { $0[index] = result }
        }
    }
    guard !stopped.load(ordering: .relaxed) else { return nil }
    return results.withLock { $0.compactMap { $0 } }
}
