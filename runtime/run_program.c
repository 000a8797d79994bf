/* Running the external programs quarkflow calls (StarPU's starpu_fxt_tool, gnuplot) without a
 * shell: file and folder names reach the program as arguments and are never parsed as commands, so
 * a name holding a quote or a ';' stays a name. */
#define _GNU_SOURCE /* posix_spawn_file_actions_addfchdir_np (glibc >= 2.29, musl >= 1.1.24) */
#include "quarkflow/qf_runtime.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

qf_program_status qf_run_program(const char *const argv[], const char *dir, const char *log)
{
    /* The log and the folder are opened here, not among the child's file actions, so that their
     * failures get their own message and posix_spawnp's ENOENT can only mean a missing program. */
    int log_fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (log_fd < 0) {
        qf_fail("cannot write %s (%s): %s needs it for its messages", log, strerror(errno), argv[0]);
        return QF_PROGRAM_FAILED;
    }
    int dir_fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (dir && dir_fd < 0) {
        qf_fail("cannot enter the folder %s (%s) to run %s there", dir, strerror(errno), argv[0]);
        close(log_fd);
        return QF_PROGRAM_FAILED;
    }
    posix_spawn_file_actions_t actions;
    pid_t pid;
    int err = posix_spawn_file_actions_init(&actions);
    if (!err) {
        err = posix_spawn_file_actions_adddup2(&actions, log_fd, STDOUT_FILENO);
        if (!err) err = posix_spawn_file_actions_adddup2(&actions, log_fd, STDERR_FILENO);
        if (!err && dir) err = posix_spawn_file_actions_addfchdir_np(&actions, dir_fd);
        /* argv[] is not modified: POSIX declares it char *const[] for C's sake */
        if (!err) err = posix_spawnp(&pid, argv[0], &actions, NULL, (char *const *)argv, environ);
        posix_spawn_file_actions_destroy(&actions);
    }
    close(log_fd);
    if (dir) close(dir_fd);
    if (err == ENOENT) {
        qf_fail("%s was not found (neither as given nor on PATH)", argv[0]);
        return QF_PROGRAM_NOT_FOUND;
    }
    if (err) {
        qf_fail("cannot run %s (%s)", argv[0], strerror(err));
        return QF_PROGRAM_FAILED;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            qf_fail("lost track of %s (waitpid: %s)", argv[0], strerror(errno));
            return QF_PROGRAM_FAILED;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return QF_PROGRAM_OK;
    if (WIFEXITED(status)) qf_fail("%s exited with status %d (see %s)", argv[0], WEXITSTATUS(status), log);
    else qf_fail("%s was ended by signal %d (see %s)", argv[0], WTERMSIG(status), log);
    return QF_PROGRAM_FAILED;
}
