/* test_mpix_fifo.c - MPIX_Info_set_from_file on FIFOs and pipes, through both names.
 *
 * A FIFO that no process has open for writing reads as empty: the call returns at once with
 * MPI_SUCCESS and sets nothing (it runs in a child process with an alarm, so a call that waits
 * for a writer fails the test instead of hanging it). A pipe given by its /dev/fd/N path, as
 * ROMIO_HINTS=<(...) gives one, is read until its writer (another thread, or another process)
 * closes it, however many times the reader has to wait for data: the thread writes more than a
 * pipe holds. A named FIFO that a writer holds open is read until the writer closes it; the
 * writer here is this process, which closes its descriptor once FIONREAD shows that the
 * library has read everything, so no step depends on timing. */
#include "mpix_support.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

typedef int (*file_fn)(MPI_Info, const char *, int, int);
static const file_fn FROM_FILE[2] = {MPIX_Info_set_from_file, PMPIX_Info_set_from_file};

static void write_all(int fd, const char *bytes, size_t n) {
    while (n > 0) {
        ssize_t written = write(fd, bytes, n);
        if (written < 0) {
            perror("write");
            exit(2);
        }
        bytes += written;
        n -= (size_t)written;
    }
}

/* A FIFO with no writer, read in a child process that an alarm ends if the call waits. The
 * object's pair stays, and no other is set. */
static void fifo_without_writer(const char *dir) {
    char path[256];
    snprintf(path, sizeof path, "%s/no_writer", dir);
    if (mkfifo(path, 0600) != 0) {
        perror("mkfifo");
        exit(2);
    }
    static const char *const kv[] = {"cb_nodes", "4"};
    const int formats[2] = {MPIX_INFO_FORMAT_LINES, MPIX_INFO_FORMAT_PAIRS};
    for (int api = 0; api < 2; api++)
        for (int f = 0; f < 2; f++) {
            fflush(NULL);
            pid_t child = fork();
            if (child < 0) {
                perror("fork");
                exit(2);
            }
            if (child == 0) {
                alarm(30);
                MPI_Info info = make_info(kv, 1);
                int rc = FROM_FILE[api](info, path, formats[f], 1);
                int outcome = rc != MPI_SUCCESS ? 1 : !holds(info, kv, 1) ? 2 : 0;
                MPI_Info_free(&info);
                _exit(outcome);
            }
            int status;
            if (waitpid(child, &status, 0) != child) {
                perror("waitpid");
                exit(2);
            }
            CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
            if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
                fprintf(stderr, "  api %d format %d: the call waited for a writer\n", api, formats[f]);
            else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
                fprintf(stderr, "  api %d format %d: %s\n", api, formats[f],
                        WEXITSTATUS(status) == 1 ? "not MPI_SUCCESS" : "the object changed");
        }
}

struct writer {
    int fd;
    const char *text;
    size_t length;
};

static void *write_and_close(void *arg) {
    struct writer *w = (struct writer *)arg;
    write_all(w->fd, w->text, w->length);
    close(w->fd);
    return NULL;
}

/* LINES that no pipe holds at once (6000 lines of 20 bytes): key_0000 value_0000, ... */
#define MANY 6000
static char *many_lines(size_t *length) {
    char *text = (char *)malloc(MANY * 20 + 1);
    if (!text) exit(2);
    size_t at = 0;
    for (int i = 0; i < MANY; i++) at += (size_t)sprintf(text + at, "key_%04d value_%04d\n", i, i);
    *length = at;
    return text;
}

/* 1 if info holds exactly the pairs of many_lines(), in order (nkeys, and every nth key and
 * its value). */
static int holds_many(MPI_Info info) {
    int nkeys = -1;
    if (MPI_Info_get_nkeys(info, &nkeys) != MPI_SUCCESS || nkeys != MANY) return 0;
    for (int i = 0; i < MANY; i++) {
        char key[MPI_MAX_INFO_KEY], value[MPI_MAX_INFO_VAL], want[32];
        int flag = 0;
        if (MPI_Info_get_nthkey(info, i, key) != MPI_SUCCESS) return 0;
        snprintf(want, sizeof want, "key_%04d", i);
        if (strcmp(key, want) != 0) return 0;
        if (MPI_Info_get(info, key, MPI_MAX_INFO_VAL - 1, value, &flag) != MPI_SUCCESS || !flag) return 0;
        snprintf(want, sizeof want, "value_%04d", i);
        if (strcmp(value, want) != 0) return 0;
    }
    return 1;
}

static void pipe_pair(int fds[2]) {
    if (pipe(fds) != 0) {
        perror("pipe");
        exit(2);
    }
}

/* A pipe's /dev/fd/N path whose writer is another thread, writing more than the pipe holds. */
static void pipe_written_by_thread(int api) {
    int fds[2];
    pipe_pair(fds);
    size_t length;
    char *text = many_lines(&length);
    struct writer w = {fds[1], text, length};
    pthread_t thread;
    if (pthread_create(&thread, NULL, write_and_close, &w) != 0) exit(2);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    MPI_Info info;
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(FROM_FILE[api](info, path, MPIX_INFO_FORMAT_LINES, 0), MPI_SUCCESS);
    CHECK(holds_many(info));
    pthread_join(thread, NULL);
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    close(fds[0]);
    free(text);
}

/* A pipe's /dev/fd/N path whose writer is another process. */
static void pipe_written_by_process(int api) {
    static const char text[] = "striping_factor=8; romio_cb_write=enable\ncb_nodes=2";
    static const char *const kv[] = {"striping_factor", "8", "romio_cb_write", "enable", "cb_nodes", "2"};
    int fds[2];
    pipe_pair(fds);
    fflush(NULL);
    pid_t child = fork();
    if (child < 0) exit(2);
    if (child == 0) {
        close(fds[0]);
        write_all(fds[1], text, sizeof text - 1);
        _exit(0);
    }
    close(fds[1]);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    MPI_Info info;
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(FROM_FILE[api](info, path, MPIX_INFO_FORMAT_PAIRS, 0), MPI_SUCCESS);
    CHECK(holds(info, kv, 3));
    int status;
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
    close(fds[0]);
}

/* Closes the FIFO's writing descriptor once the reader has taken every byte in it. */
static void *close_when_drained(void *arg) {
    int fd = *(int *)arg;
    const struct timespec pause = {0, 1000000};
    for (;;) {
        int pending = -1;
        if (ioctl(fd, FIONREAD, &pending) != 0 || pending == 0) break;
        nanosleep(&pause, NULL);
    }
    close(fd);
    return NULL;
}

/* A named FIFO that a writer holds open: this process, through a descriptor opened for reading
 * and writing (which does not wait for a reader on Linux). */
static void fifo_with_writer(const char *dir, int api) {
    static const char text[] = "# system hints\ncb_buffer_size 16777216\ncb_nodes 2\n";
    static const char *const kv[] = {"cb_buffer_size", "16777216", "cb_nodes", "2"};
    char path[256];
    snprintf(path, sizeof path, "%s/with_writer_%d", dir, api);
    if (mkfifo(path, 0600) != 0) {
        perror("mkfifo");
        exit(2);
    }
    int fd = open(path, O_RDWR);
    if (fd < 0) {
        perror("open");
        exit(2);
    }
    write_all(fd, text, sizeof text - 1);
    pthread_t thread;
    if (pthread_create(&thread, NULL, close_when_drained, &fd) != 0) exit(2);
    MPI_Info info;
    CHECK_RC(MPI_Info_create(&info), MPI_SUCCESS);
    CHECK_RC(FROM_FILE[api](info, path, MPIX_INFO_FORMAT_LINES, 0), MPI_SUCCESS);
    CHECK(holds(info, kv, 2));
    pthread_join(thread, NULL);
    CHECK_RC(MPI_Info_free(&info), MPI_SUCCESS);
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    /* A read that never ends fails the whole program instead of hanging it. */
    alarm(300);
    char dir[] = "/tmp/mpix_fifo_XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    fifo_without_writer(dir);
    for (int api = 0; api < 2; api++) {
        pipe_written_by_thread(api);
        pipe_written_by_process(api);
        fifo_with_writer(dir, api);
    }
    char path[256];
    const char *names[] = {"no_writer", "with_writer_0", "with_writer_1"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
    return check_report();
}
