#define _GNU_SOURCE
#include "CPlatform.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Closes every descriptor from 3 up: close_range(2) where the kernel has it, else one by one up
 * to the descriptor limit. */
static void close_from_three(void) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
#endif
    struct rlimit limit;
    long highest = 1024;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < 1048576) highest = (long)limit.rlim_cur;
    for (long fd = 3; fd < highest; fd++) close((int)fd);
}

pid_t subweave_spawn(const char *path, char *const argv[], char *const envp[], int stdin_fd, int stdout_fd, int stderr_fd) {
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0) return pid;
    /* The child: async-signal-safe calls only. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) _exit(127);
    if (getppid() != parent) _exit(127);
    struct sigaction action = {0};
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    for (int signal = 1; signal < NSIG; signal++) {
        if (signal != SIGKILL && signal != SIGSTOP) sigaction(signal, &action, NULL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int fds[3] = {stdin_fd, stdout_fd, stderr_fd};
    /* Move the three out of the way first, so that dup2 into 0-2 cannot overwrite one another. */
    for (int i = 0; i < 3; i++) {
        int moved = fcntl(fds[i], F_DUPFD, 10);
        if (moved < 0) _exit(127);
        fds[i] = moved;
    }
    for (int i = 0; i < 3; i++) {
        if (dup2(fds[i], i) < 0) _exit(127);
    }
    close_from_three();
    execve(path, argv, envp);
    _exit(127);
}

int subweave_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }
