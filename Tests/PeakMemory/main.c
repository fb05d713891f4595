// peak-memory PROGRAM [ARGUMENT…]: runs PROGRAM with its standard input, output and error
// on /dev/null and prints "<peak resident kilobytes> <exit status>" (the status is 128 + the
// signal when a signal ended it).
//
// Why a separate, small program: Linux counts, in a process's peak resident memory, the
// memory of the process it was exec'd from (the kernel takes the old address space's high
// water mark at exec). A child spawned straight from a test process (whose own memory grows
// with the tests running in it) would report the test process's size. Forked from this small
// program, the child's figure is its own.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: peak-memory PROGRAM [ARGUMENT...]\n");
        return 2;
    }
    pid_t child = fork();
    if (child < 0) {
        perror("peak-memory: fork");
        return 2;
    }
    if (child == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null < 0) _exit(127);
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        execv(argv[1], argv + 1);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    while (wait4(child, &status, 0, &usage) < 0) {
        if (errno == EINTR) continue;
        perror("peak-memory: wait4");
        return 2;
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    printf("%ld %d\n", usage.ru_maxrss, code);
    return 0;
}
