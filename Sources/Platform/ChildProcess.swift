import CPlatform
import Foundation
import Synchronization

/// Why a child process could not be started, or what it did wrong: the program, the
/// operation, and the errno when a system call failed.
package struct ProcessFailure: Error, Sendable, Equatable {
    package let executable: String
    package let operation: String
    package let errno: Int32?

    /// "could not start /usr/bin/ffmpeg (errno 2: No such file or directory)".
    package var message: String {
        let cause = errno.map { " (errno \($0): \(String(cString: strerror($0))))" } ?? ""
        return "\(operation) \(executable)\(cause)"
    }
}

/// A program Subweave runs for part of the work (ffmpeg, Tesseract), with its standard input,
/// output and error as pipes.
///
/// Every child is bounded and stopped on every exit path:
/// - the kernel kills it when Subweave ends, however it ends (SIGINT, SIGTERM, even SIGKILL: the
///   parent-death signal, asked for between fork and exec; children are started from one thread
///   that lives as long as the process, as the signal follows the starting thread);
/// - ``watch(stallLimit:)`` kills a child that neither takes input nor gives output for a while;
/// - dropping the last reference kills a child not yet waited for.
package final class ChildProcess: Sendable {
    package let pid: pid_t
    package let executable: String
    private let input: Descriptor
    private let output: Descriptor
    private let errors: Descriptor
    private let state = Mutex(State())
    /// When the child last took input or gave output (uptime nanoseconds).
    private let lastProgress = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)

    private struct State {
        var status: Int32?
        var killed = false
        var stalled = false
    }

    private init(pid: pid_t, executable: String, input: Int32, output: Int32, errors: Int32) {
        self.pid = pid
        self.executable = executable
        self.input = Descriptor(input)
        self.output = Descriptor(output)
        self.errors = Descriptor(errors)
    }

    deinit {
        stop()
        _ = waitForExit()
    }

    /// Starts `executable` (a path) with `arguments`, in this process's environment.
    package static func launch(_ executable: String, _ arguments: [String]) throws(ProcessFailure) -> ChildProcess {
        // A reader that goes away must make our writes fail, not end this process.
        signal(SIGPIPE, SIG_IGN)
        var pipes: [(read: Int32, write: Int32)] = []
        func closeAll() {
            for pipe in pipes {
                close(pipe.read)
                close(pipe.write)
            }
        }
        for _ in 0..<3 {
            var ends: [Int32] = [-1, -1]
            guard subweave_pipe(&ends) == 0 else {
                let code = errno
                closeAll()
                throw ProcessFailure(executable: executable, operation: "could not make a pipe for", errno: code)
            }
            pipes.append((ends[0], ends[1]))
        }
        let started = Spawner.shared.spawn(executable, [executable] + arguments, stdin: pipes[0].read, stdout: pipes[1].write, stderr: pipes[2].write)
        // The child's ends are the child's now.
        close(pipes[0].read)
        close(pipes[1].write)
        close(pipes[2].write)
        let pid: pid_t
        switch started {
        case .success(let started): pid = started
        case .failure(let error):
            close(pipes[0].write)
            close(pipes[1].read)
            close(pipes[2].read)
            throw ProcessFailure(executable: executable, operation: "could not start", errno: error.code)
        }
        return ChildProcess(pid: pid, executable: executable, input: pipes[0].write, output: pipes[1].read, errors: pipes[2].read)
    }

    // MARK: - Talking to the child

    /// Writes all of `bytes` to the child's standard input; false when it can no longer be
    /// written (the child closed it or ended).
    package func write(_ bytes: some Collection<UInt8>) -> Bool {
        var copy = Array(bytes)
        return copy.withUnsafeMutableBytes { buffer in
            guard var next = buffer.baseAddress else { return true }
            var left = buffer.count
            while left > 0 {
                let n = input.use { Foundation.write($0, next, left) } ?? -1
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                progressed()
                next += n
                left -= n
            }
            return true
        }
    }

    /// Closes the child's standard input: it reads end of file.
    package func closeInput() { input.close() }

    /// Reads what the child writes to its standard output, up to `count` bytes; empty at the end.
    package func readOutput(upTo count: Int = 1 << 16) -> [UInt8] { read(output, upTo: count) }

    /// Reads what the child writes to its standard error, up to `count` bytes; empty at the end.
    package func readErrors(upTo count: Int = 1 << 12) -> [UInt8] { read(errors, upTo: count) }

    /// Reads the child's standard output (`errors`: its standard error) to its end, keeping the
    /// first `limit` bytes: the rest is read and dropped (so the child never blocks on a full
    /// pipe), or with `stopPastLimit` the child is stopped once the limit is passed.
    package func readAll(errors: Bool = false, limit: Int, stopPastLimit: Bool = false) -> [UInt8] {
        var kept: [UInt8] = []
        while true {
            let data = errors ? readErrors() : readOutput()
            if data.isEmpty { return kept }
            if kept.count < limit {
                kept += data.prefix(limit - kept.count)
            } else if stopPastLimit {
                stop()
            }
        }
    }

    private func read(_ descriptor: Descriptor, upTo count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        while true {
            let n = bytes.withUnsafeMutableBytes { buffer in descriptor.use { Foundation.read($0, buffer.baseAddress, count) } ?? 0 }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return [] }
            progressed()
            bytes.removeSubrange(n...)
            return bytes
        }
    }

    private func progressed() { lastProgress.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed) }

    // MARK: - Ending

    /// Kills the child (SIGKILL) unless it has been waited for; its pipes then end.
    package func stop() {
        let alive = state.withLock { state -> Bool in
            guard state.status == nil, !state.killed else { return false }
            state.killed = true
            return true
        }
        if alive { kill(pid, SIGKILL) }
        input.close()
    }

    /// Waits for the child to end and reaps it; its pipes are closed.
    ///
    /// Returns its exit status, or 128 + the signal that ended it.
    @discardableResult
    package func waitForExit() -> Int32 {
        if let status = state.withLock({ $0.status }) { return status }
        var raw: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &raw, 0) } while result < 0 && errno == EINTR
        let status: Int32
        if result < 0 {
            status = 255
        } else if raw & 0x7F == 0 {
            status = (raw >> 8) & 0xFF
        } else {
            status = 128 + (raw & 0x7F)
        }
        input.close()
        output.close()
        errors.close()
        return state.withLock { state in
            if state.status == nil { state.status = status }
            return state.status ?? status
        }
    }

    /// Whether the child was killed by ``stop()`` or by the watch.
    package var wasStopped: Bool { state.withLock { $0.killed } }

    /// Whether the watch killed the child for making no progress.
    package var stalled: Bool { state.withLock { $0.stalled } }

    /// Kills the child if it neither takes input nor gives output for `stallLimit` seconds, until
    /// it has been waited for.
    package func watch(stallLimit: Double) {
        let limit = UInt64(max(0.05, stallLimit) * 1e9)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let step = DispatchTimeInterval.milliseconds(Int(min(1_000, max(10, stallLimit * 100))))
        timer.schedule(deadline: .now() + step, repeating: step)
        timer.setEventHandler { [weak self] in
            guard let self else {
                timer.cancel()
                return
            }
            let done = self.state.withLock { $0.status != nil || $0.killed }
            if done {
                timer.cancel()
                return
            }
            if DispatchTime.now().uptimeNanoseconds - self.lastProgress.load(ordering: .relaxed) > limit {
                self.state.withLock { $0.stalled = true }
                self.stop()
                timer.cancel()
            }
        }
        timer.resume()
    }
}

/// A file descriptor closed once, by whichever side gets there first.
private final class Descriptor: Sendable {
    private let fd: Mutex<Int32>

    init(_ fd: Int32) { self.fd = Mutex(fd) }

    /// Runs `body` with the descriptor, nil once it is closed.
    ///
    /// The descriptor stays open while `body` runs only if no other thread closes it; a read blocked in the kernel is woken by
    /// the child's end, not by the close.
    func use<T>(_ body: (Int32) -> T) -> T? {
        let value = fd.withLock { $0 }
        return value < 0 ? nil : body(value)
    }

    func close() {
        let value = fd.withLock { fd -> Int32 in
            let old = fd
            fd = -1
            return old
        }
        if value >= 0 { _ = Foundation.close(value) }
    }

    deinit { close() }
}

/// Starts children from one thread that lives as long as the process: the kernel sends the
/// parent-death signal when the thread that forked ends, so a worker thread that the system
/// retires must never be that thread.
private final class Spawner: @unchecked Sendable {  // `requests` is guarded by `condition`.
    static let shared = Spawner()

    private let condition = NSCondition()
    private var requests: [Request] = []

    private final class Request: @unchecked Sendable {  // `result` is written before `done` is signalled.
        let path: String
        let arguments: [String]
        let fds: (Int32, Int32, Int32)
        var result: Result<pid_t, Errno> = .failure(Errno(code: 0))
        let done = DispatchSemaphore(value: 0)

        init(path: String, arguments: [String], fds: (Int32, Int32, Int32)) {
            self.path = path
            self.arguments = arguments
            self.fds = fds
        }
    }

    struct Errno: Error { let code: Int32 }

    private init() {
        let thread = Thread { [self] in self.serve() }
        thread.name = "subweave-spawner"
        thread.start()
    }

    func spawn(_ path: String, _ arguments: [String], stdin: Int32, stdout: Int32, stderr: Int32) -> Result<pid_t, Errno> {
        let request = Request(path: path, arguments: arguments, fds: (stdin, stdout, stderr))
        condition.lock()
        requests.append(request)
        condition.signal()
        condition.unlock()
        request.done.wait()
        return request.result
    }

    private func serve() {
        while true {
            condition.lock()
            while requests.isEmpty { condition.wait() }
            let request = requests.removeFirst()
            condition.unlock()
            request.result = Self.fork(request)
            request.done.signal()
        }
    }

    private static func fork(_ request: Request) -> Result<pid_t, Errno> {
        // The argument and environment strings are made before the fork: the child may only
        // make async-signal-safe calls.
        let argv = request.arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let pid = argv.withUnsafeBufferPointer { argvBuffer in
            subweave_spawn(request.path, argvBuffer.baseAddress, environ, request.fds.0, request.fds.1, request.fds.2)
        }
        guard pid > 0 else { return .failure(Errno(code: errno)) }
        return .success(pid)
    }
}
