/* test_hostile.c - MPIX_Info_set_from_file against hostile callers and files.
 *
 * Each case runs in a child process of its own, with an alarm: a case that aborts the process
 * or waits for ever fails its check instead of ending or hanging the program.
 *
 *   cancel_pending   a thread with a cancel pending when it calls set_from_file: the call
 *                    runs whole (the file's pairs are set), and the cancel acts at the
 *                    thread's next cancellation point after it, not inside the library (where
 *                    glibc's forced unwind would abort the process);
 *   cancel_in_read   a thread cancelled while set_from_file waits in a read of a pipe: the
 *                    same, once the writer has written and closed the pipe;
 *   terminal         a session leader without a controlling terminal gives set_from_file a
 *                    terminal that has a line and an end of file waiting: MPI_ERR_OTHER, the
 *                    object unchanged, and the terminal did not become its controlling
 *                    terminal;
 *   kinds            what set_from_file reads: a regular file, a pipe and /dev/null (empty)
 *                    are read; a terminal master (/dev/ptmx, which would wait for ever),
 *                    /dev/zero (which never ends) and a directory are MPI_ERR_OTHER at once,
 *                    with the object unchanged. */
#include "mpix_support.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

typedef int (*file_fn)(MPI_Info, const char *, int, int);
static const file_fn FROM_FILE[2] = {MPIX_Info_set_from_file, PMPIX_Info_set_from_file};

static const char *const BEFORE[] = {"kept", "yes"};
static const char *const AFTER[] = {"kept", "yes", "cb_nodes", "4"};
static const char TEXT[] = "cb_nodes 4\n";

/* Runs case(api) in a child process that an alarm of `seconds` ends; the child's checks are
 * added to this process's counts (one failed check if it died or hung). */
static void in_child(const char *name, void (*run)(int), int api, unsigned seconds) {
    int fds[2];
    if (pipe(fds) != 0) exit(2);
    fflush(NULL);
    pid_t child = fork();
    if (child < 0) exit(2);
    if (child == 0) {
        close(fds[0]);
        alarm(seconds);
        check_passed_count = check_failed_count = 0;
        run(api);
        int counts[2] = {check_passed_count, check_failed_count};
        if (write(fds[1], counts, sizeof counts) != (ssize_t)sizeof counts) _exit(3);
        _exit(0);
    }
    close(fds[1]);
    int counts[2] = {0, 0}, status = 0;
    ssize_t got = read(fds[0], counts, sizeof counts);
    close(fds[0]);
    CHECK(waitpid(child, &status, 0) == child);
    int whole = got == (ssize_t)sizeof counts && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    CHECK(whole);
    if (!whole) {
        if (WIFSIGNALED(status))
            fprintf(stderr, "  %s (api %d): the child died of signal %d%s\n", name, api,
                    WTERMSIG(status), WTERMSIG(status) == SIGALRM ? " (it hung)" : "");
        else
            fprintf(stderr, "  %s (api %d): the child did not finish (status %#x)\n", name, api,
                    (unsigned)status);
    }
    check_passed_count += counts[0];
    check_failed_count += counts[1];
}

static char dir[64];
static char text_path[128];

/* ---------------------------------------------------------------- cancellation */

struct reader {
    int api;
    const char *path;
    MPI_Info info;
    int cancel_self;     /* pthread_cancel itself before the call */
    volatile pid_t tid;  /* the thread's id, for the main thread to watch it */
    volatile int rc;
    volatile int returned;
};

static void *read_hints(void *arg) {
    struct reader *r = (struct reader *)arg;
    r->tid = (pid_t)syscall(SYS_gettid);
    if (r->cancel_self) pthread_cancel(pthread_self());
    r->rc = FROM_FILE[r->api](r->info, r->path, MPIX_INFO_FORMAT_LINES, 1);
    r->returned = 1;
    pthread_testcancel(); /* the cancel, pending, acts here */
    return NULL;
}

/* Ends the thread, checks that the cancel ended it after the call returned whole. */
static void check_cancelled_after_the_call(pthread_t thread, struct reader *r) {
    void *result = NULL;
    CHECK(pthread_join(thread, &result) == 0);
    CHECK(result == PTHREAD_CANCELED);
    CHECK(r->returned);
    CHECK_RC(r->rc, MPI_SUCCESS);
    CHECK(holds(r->info, AFTER, 2));
    CHECK_RC(MPI_Info_free(&r->info), MPI_SUCCESS);
}

static void cancel_pending(int api) {
    struct reader r = {api, text_path, make_info(BEFORE, 1), 1, 0, -1, 0};
    pthread_t thread;
    if (pthread_create(&thread, NULL, read_hints, &r) != 0) exit(2);
    check_cancelled_after_the_call(thread, &r);
}

/* 1 once thread `tid` of this process waits in a read system call (Linux's
 * /proc/self/task/<tid>/syscall gives the number of the call it is blocked in). */
static int waits_in_read(pid_t tid) {
    char path[64], line[64] = "";
    snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int)tid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int got = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    return got && atoi(line) == SYS_read && line[0] != 'r';
}

static void cancel_in_read(int api) {
    int fds[2];
    if (pipe(fds) != 0) exit(2);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    struct reader r = {api, path, make_info(BEFORE, 1), 0, 0, -1, 0};
    pthread_t thread;
    if (pthread_create(&thread, NULL, read_hints, &r) != 0) exit(2);
    /* Cancel it once it waits in the library's read of the empty pipe (up to 10 s; a cancel
     * before the read is the pending case above, which must pass too). */
    const struct timespec pause = {0, 2000000};
    for (int i = 0; i < 5000 && !(r.tid && waits_in_read(r.tid)); i++) nanosleep(&pause, NULL);
    CHECK(pthread_cancel(thread) == 0);
    nanosleep(&pause, NULL);
    CHECK(!r.returned); /* still reading: the cancel did not end the call */
    if (write(fds[1], TEXT, sizeof TEXT - 1) != (ssize_t)(sizeof TEXT - 1)) exit(2);
    close(fds[1]);
    check_cancelled_after_the_call(thread, &r);
    close(fds[0]);
}

/* ---------------------------------------------------------------- terminals and devices */

/* A new terminal: its master (returned) and the path of its other side in `slave`. */
static int new_terminal(char *slave, size_t size) {
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0 || !ptsname(master)) {
        perror("posix_openpt");
        exit(2);
    }
    snprintf(slave, size, "%s", ptsname(master));
    return master;
}

static void terminal(int api) {
    /* A session leader, with no controlling terminal. */
    if (setsid() < 0) {
        perror("setsid");
        exit(2);
    }
    char slave[128];
    int master = new_terminal(slave, sizeof slave);
    /* A line and an end of file (^D) wait in the terminal: read as a file, it would end. */
    static const char typed[] = "cb_nodes 4\n\004";
    if (write(master, typed, sizeof typed - 1) != (ssize_t)(sizeof typed - 1)) exit(2);
    MPI_Info info = make_info(BEFORE, 1);
    CHECK_RC(FROM_FILE[api](info, slave, MPIX_INFO_FORMAT_LINES, 1), MPI_ERR_OTHER);
    CHECK(holds(info, BEFORE, 1));
    /* Not its controlling terminal: the process has none. */
    int tty = open("/dev/tty", O_RDONLY | O_NOCTTY);
    CHECK(tty < 0);
    if (tty >= 0) {
        fprintf(stderr, "  the terminal %s became the controlling terminal\n", slave);
        close(tty);
    }
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    close(master);
}

/* set_from_file on `path` returns `expected`; on success the object holds `after` (n pairs),
 * otherwise it is unchanged. */
static void read_as(int api, const char *path, int expected, const char *const *after, int n) {
    MPI_Info info = make_info(BEFORE, 1);
    CHECK_RC(FROM_FILE[api](info, path, MPIX_INFO_FORMAT_LINES, 1), expected);
    if (expected == MPI_SUCCESS)
        CHECK(holds(info, after, n));
    else
        CHECK(holds(info, BEFORE, 1));
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
}

static void kinds(int api) {
    read_as(api, text_path, MPI_SUCCESS, AFTER, 2);
    read_as(api, "/dev/null", MPI_SUCCESS, BEFORE, 1);
    int fds[2];
    if (pipe(fds) != 0) exit(2);
    if (write(fds[1], TEXT, sizeof TEXT - 1) != (ssize_t)(sizeof TEXT - 1)) exit(2);
    close(fds[1]);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    read_as(api, path, MPI_SUCCESS, AFTER, 2);
    close(fds[0]);
    if (access("/dev/ptmx", R_OK) == 0) read_as(api, "/dev/ptmx", MPI_ERR_OTHER, NULL, 0);
    read_as(api, "/dev/zero", MPI_ERR_OTHER, NULL, 0);
    read_as(api, dir, MPI_ERR_OTHER, NULL, 0);
    /* A terminal, as a process that has a controlling terminal gives it. */
    char slave[128];
    int master = new_terminal(slave, sizeof slave);
    read_as(api, slave, MPI_ERR_OTHER, NULL, 0);
    close(master);
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    snprintf(dir, sizeof dir, "/tmp/test_hostile.XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    snprintf(text_path, sizeof text_path, "%s/hints", dir);
    FILE *f = fopen(text_path, "w");
    if (!f || fputs(TEXT, f) < 0 || fclose(f) != 0) return 2;
    for (int api = 0; api < 2; api++) {
        in_child("cancel_pending", cancel_pending, api, 20);
        in_child("cancel_in_read", cancel_in_read, api, 20);
        in_child("terminal", terminal, api, 20);
        in_child("kinds", kinds, api, 20);
    }
    unlink(text_path);
    rmdir(dir);
    return check_report();
}
