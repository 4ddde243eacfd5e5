/* test_fork.c - a child process goes on using the library after fork(), even when other
 * threads of the parent were inside calls at that moment.
 *
 * The parent has objects of three kinds: stable ones (never changed after setup, so the child
 * must see exactly their pairs), one that reader threads read without pause, and one that a
 * writer thread keeps changing (the child must see it whole: a value the writer set, never a
 * half-made one). A fourth thread creates, duplicates and frees objects of its own, so that the
 * handle table's allocator is busy too. While all four run, the main thread forks again and
 * again. Each child, single-threaded:
 *   - reads the stable objects and the parent's other objects, and MPI_INFO_ENV;
 *   - changes and frees objects the parent made, creates and duplicates new ones;
 *   - exits 0 if every check held, or the line of the first check that failed.
 * The parent waits for each child with a bound (CHILD_SECONDS): a child that has not ended by
 * then is waiting for a lock or a thread that does not exist in it, and fails the test. The
 * bound is about hangs, not speed: a working child ends in milliseconds.
 *
 * With MPI_INFO_UNDER_VALGRIND set, fewer forks. */
#include "support.h"

#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#define STABLE 8
#define STABLE_KEYS 20
#define CHILD_SECONDS 30

static MPI_Info stable[STABLE], read_mostly, written;
static volatile int stop;

/* The value the writer sets on its n-th turn: 'w', then n in decimal, padded to 600
 * characters with a letter that depends on n, so that a value copied half way shows. */
static void writer_value(char *out, unsigned n) {
    int len = snprintf(out, 32, "w%u", n);
    memset(out + len, 'a' + (int)(n % 26), (size_t)(600 - len));
    out[600] = '\0';
}

/* 1 if value is one that writer_value makes. */
static int whole_writer_value(const char *value) {
    if (value[0] != 'w' || strlen(value) != 600) return 0;
    unsigned n = 0;
    int len = 1;
    while (value[len] >= '0' && value[len] <= '9' && len < 12) n = n * 10 + (unsigned)(value[len++] - '0');
    char expect[601];
    writer_value(expect, n);
    return strcmp(expect, value) == 0;
}

static void stable_pair(int object, int key, char *k, char *v) {
    snprintf(k, 32, "stable_%d_%d", object, key);
    snprintf(v, 64, "value %d of object %d", key, object);
}

static void *reader(void *arg) {
    (void)arg;
    char value[MPI_MAX_INFO_VAL], key[MPI_MAX_INFO_KEY];
    int flag, n;
    while (!stop) {
        MPI_Info_get(read_mostly, "k", MPI_MAX_INFO_VAL - 1, value, &flag);
        MPI_Info_get_nkeys(stable[0], &n);
        MPI_Info_get_nthkey(stable[1], 3, key);
        MPI_Info_get(written, "x", MPI_MAX_INFO_VAL - 1, value, &flag);
    }
    return NULL;
}

static void *writer(void *arg) {
    (void)arg;
    char value[601];
    for (unsigned n = 0; !stop; n++) {
        writer_value(value, n);
        MPI_Info_set(written, "x", value);
        if (n % 16 == 0) {
            MPI_Info_set(written, "y", "temporary");
            MPI_Info_delete(written, "y");
        }
    }
    return NULL;
}

static void *churner(void *arg) {
    (void)arg;
    while (!stop) {
        MPI_Info a, b;
        if (MPI_Info_create(&a) != MPI_SUCCESS) continue;
        MPI_Info_set(a, "churn", "1");
        if (MPI_Info_dup(a, &b) == MPI_SUCCESS) MPI_Info_free(&b);
        MPI_Info_free(&a);
    }
    return NULL;
}

/* In the child: the first failed condition's line becomes the exit status. */
#define CHILD_CHECK(cond)                                                                  \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "child: %s:%d: %s\n", __FILE__, __LINE__, #cond);              \
            _exit(__LINE__ % 250 + 1);                                                     \
        }                                                                                  \
    } while (0)

static void child(void) {
    char k[32], v[64], value[MPI_MAX_INFO_VAL], key[MPI_MAX_INFO_KEY];
    int flag = -1, n = -1;
    for (int o = 0; o < STABLE; o++) {
        CHILD_CHECK(MPI_Info_get_nkeys(stable[o], &n) == MPI_SUCCESS && n == STABLE_KEYS);
        for (int i = 0; i < STABLE_KEYS; i++) {
            stable_pair(o, i, k, v);
            CHILD_CHECK(MPI_Info_get_nthkey(stable[o], i, key) == MPI_SUCCESS && strcmp(key, k) == 0);
            CHILD_CHECK(MPI_Info_get(stable[o], k, MPI_MAX_INFO_VAL - 1, value, &flag) == MPI_SUCCESS);
            CHILD_CHECK(flag == 1 && strcmp(value, v) == 0);
        }
    }
    CHILD_CHECK(MPI_Info_get(read_mostly, "k", MPI_MAX_INFO_VAL - 1, value, &flag) == MPI_SUCCESS);
    CHILD_CHECK(flag == 1 && strcmp(value, "read me") == 0);
    CHILD_CHECK(MPI_Info_get(written, "x", MPI_MAX_INFO_VAL - 1, value, &flag) == MPI_SUCCESS);
    CHILD_CHECK(flag == 1 && whole_writer_value(value));
    CHILD_CHECK(MPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL - 1, value, &flag) == MPI_SUCCESS);
    CHILD_CHECK(flag == 1 && strcmp(value, "1") == 0);

    /* Writes and frees of the parent's objects, a thread of the parent's being the last to
     * have used each. */
    CHILD_CHECK(MPI_Info_set(written, "x", "child") == MPI_SUCCESS);
    CHILD_CHECK(MPI_Info_get(written, "x", MPI_MAX_INFO_VAL - 1, value, &flag) == MPI_SUCCESS);
    CHILD_CHECK(flag == 1 && strcmp(value, "child") == 0);
    CHILD_CHECK(MPI_Info_set(read_mostly, "k", "changed") == MPI_SUCCESS);
    CHILD_CHECK(MPI_Info_delete(stable[2], "stable_2_0") == MPI_SUCCESS);
    CHILD_CHECK(MPI_Info_get_nkeys(stable[2], &n) == MPI_SUCCESS && n == STABLE_KEYS - 1);
    MPI_Info copy = MPI_INFO_NULL, fresh = MPI_INFO_NULL;
    CHILD_CHECK(MPI_Info_dup(stable[3], &copy) == MPI_SUCCESS);
    CHILD_CHECK(MPI_Info_free(&stable[3]) == MPI_SUCCESS);
    CHILD_CHECK(MPI_Info_get_nkeys(copy, &n) == MPI_SUCCESS && n == STABLE_KEYS);
    CHILD_CHECK(MPI_Info_free(&written) == MPI_SUCCESS);
    CHILD_CHECK(MPI_Info_get_nkeys(written, &n) == MPI_ERR_INFO);
    for (int i = 0; i < 100; i++) {
        CHILD_CHECK(MPI_Info_create(&fresh) == MPI_SUCCESS);
        CHILD_CHECK(MPI_Info_set(fresh, "new", "object") == MPI_SUCCESS);
        CHILD_CHECK(MPI_Info_free(&fresh) == MPI_SUCCESS);
    }
    CHILD_CHECK(MPI_Info_free(&copy) == MPI_SUCCESS);
    for (int o = 0; o < STABLE; o++)
        if (stable[o] != MPI_INFO_NULL) CHILD_CHECK(MPI_Info_free(&stable[o]) == MPI_SUCCESS);
    CHILD_CHECK(MPI_Info_free(&read_mostly) == MPI_SUCCESS);
    /* _exit: nothing of the parent's atexit work (such as LeakSanitizer's check, which would
     * look for the parent's threads) runs in the child. */
    _exit(0);
}

/* Waits for pid for up to CHILD_SECONDS; returns its exit status, or -1 if it had to be
 * killed (it hung) or did not exit normally. */
static int wait_bounded(pid_t pid) {
    struct timespec pause = {0, 1000 * 1000};
    for (long waited = 0; waited < CHILD_SECONDS * 1000L; waited++) {
        int status;
        pid_t got = waitpid(pid, &status, WNOHANG);
        if (got == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        if (got < 0) return -1;
        nanosleep(&pause, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    fprintf(stderr, "a child did not end within %d s: it waits for something of another thread\n",
            CHILD_SECONDS);
    return -1;
}

int main(int argc, char **argv) {
    (void)argc;
    check_start(argv[0]);
    int forks = getenv("MPI_INFO_UNDER_VALGRIND") ? 20 : 300;

    char k[32], v[64];
    for (int o = 0; o < STABLE; o++) {
        CHECK_RC(MPI_Info_create(&stable[o]), MPI_SUCCESS);
        for (int i = 0; i < STABLE_KEYS; i++) {
            stable_pair(o, i, k, v);
            CHECK_RC(MPI_Info_set(stable[o], k, v), MPI_SUCCESS);
        }
    }
    CHECK_RC(MPI_Info_create(&read_mostly), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(read_mostly, "k", "read me"), MPI_SUCCESS);
    CHECK_RC(MPI_Info_create(&written), MPI_SUCCESS);
    CHECK_RC(MPI_Info_set(written, "x", "w0"), MPI_SUCCESS);
    char first[601];
    writer_value(first, 0);
    CHECK_RC(MPI_Info_set(written, "x", first), MPI_SUCCESS);

    /* A fork before any other thread exists: the simple case. */
    pid_t pid = fork();
    if (pid == 0) child();
    CHECK(pid > 0 && wait_bounded(pid) == 0);

    pthread_t threads[4];
    void *(*bodies[4])(void *) = {reader, reader, writer, churner};
    for (int t = 0; t < 4; t++)
        if (pthread_create(&threads[t], NULL, bodies[t], NULL) != 0) exit(2);

    int good = 0;
    for (int i = 0; i < forks; i++) {
        pid = fork();
        if (pid == 0) child();
        if (pid < 0) {
            perror("fork");
            break;
        }
        int status = wait_bounded(pid);
        if (status != 0) fprintf(stderr, "fork %d: child ended with %d\n", i, status);
        good += status == 0;
    }
    CHECK(good == forks);
    stop = 1;
    for (int t = 0; t < 4; t++) pthread_join(threads[t], NULL);

    /* The parent is unaffected by what its children did. */
    char value[MPI_MAX_INFO_VAL];
    int flag = 0, n = 0;
    CHECK_RC(MPI_Info_get(read_mostly, "k", MPI_MAX_INFO_VAL - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && strcmp(value, "read me") == 0);
    CHECK_RC(MPI_Info_get_nkeys(stable[2], &n), MPI_SUCCESS);
    CHECK(n == STABLE_KEYS);
    CHECK_RC(MPI_Info_get(written, "x", MPI_MAX_INFO_VAL - 1, value, &flag), MPI_SUCCESS);
    CHECK(flag == 1 && whole_writer_value(value));
    for (int o = 0; o < STABLE; o++) CHECK_RC(MPI_Info_free(&stable[o]), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&read_mostly), MPI_SUCCESS);
    CHECK_RC(MPI_Info_free(&written), MPI_SUCCESS);
    return check_report();
}
