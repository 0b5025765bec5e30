#ifndef SUBWEAVE_CPLATFORM_H
#define SUBWEAVE_CPLATFORM_H

#include <sys/types.h>

/* Starts `path` with `argv` and `envp` (NULL-terminated), its standard input, output and error
 * on the given descriptors, in a child that the kernel kills (SIGKILL) when the thread that
 * started it ends: a run that is killed, even with SIGKILL, leaves no decoder behind.
 *
 * Between fork and exec the child calls only async-signal-safe functions: it asks for the
 * parent-death signal (and exits if the parent is already gone), restores the default
 * disposition of every signal and an empty signal mask (an ignored signal, SIGPIPE among them,
 * and the mask are inherited through exec), moves the
 * three descriptors into place, closes every other descriptor, and execs.
 *
 * Returns the child's pid, or -1 with errno set when fork fails. A child whose exec fails exits
 * with status 127. Call it from a thread that lives as long as the child may (see Platform's
 * ChildProcess). */
pid_t subweave_spawn(const char *path, char *const argv[], char *const envp[], int stdin_fd, int stdout_fd, int stderr_fd);

/* pipe2(fds, O_CLOEXEC): a pipe whose ends no other child inherits. 0, or -1 with errno set. */
int subweave_pipe(int fds[2]);

#endif
