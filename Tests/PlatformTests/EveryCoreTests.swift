import Foundation
import Platform
import Synchronization
import Testing

/// Work spread over every core comes back in index order, each index worked once; a result it is
/// told to stop at gives nil.
struct EveryCoreTests {
    @Test(arguments: [0, 1, 2, 3, 97])
    func resultsComeInIndexOrder(_ count: Int) throws {
        let calls = Mutex<[Int]>([])
        let results = try #require(
            onEveryCore(count) { index -> String in
                calls.withLock { $0.append(index) }
                // Later indices finish first when they run beside earlier ones.
                if index % 3 == 0 { usleep(200) }
                return "r\(index)"
            })
        #expect(results == (0..<count).map { "r\($0)" })
        #expect(calls.withLock { $0.sorted() } == Array(0..<count))
    }

    @Test func aResultToStopAtGivesNil() {
        #expect(onEveryCore(50, stopping: { $0 == nil }) { index -> Int? in index == 31 ? nil : index } == nil)
        #expect(onEveryCore(1, stopping: { $0 == nil }) { _ -> Int? in nil } == nil)
        let all = onEveryCore(50, stopping: { $0 == nil }) { index -> Int? in index }
        #expect(all?.count == 50)
        #expect(all?.last == 49)
        // Nil results are kept when nothing says to stop at them.
        #expect(onEveryCore(4) { index -> Int? in index == 2 ? nil : index } == [0, 1, nil, 3])
    }
}
