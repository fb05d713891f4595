import Foundation

extension GraphStoreBinary {
    /// Runs `graphstore` with its output thrown away and returns its peak resident memory in
    /// kilobytes (from `wait4`, which reports it for exactly that child), and its exit status.
    static func peakMemory(_ arguments: [String]) throws -> (kilobytes: Int, status: Int32) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let environment: [String] = ["HOME=/nonexistent", "PATH=/usr/bin:/bin"]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, nil, argv, envp)
        guard rc == 0 else { throw TerminalError("posix_spawn: \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(child, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw TerminalError("wait4: \(String(cString: strerror(errno)))") }
        }
        return (Int(usage.ru_maxrss), (status >> 8) & 0xff)
    }
}
